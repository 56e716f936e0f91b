// Search as you type, and the filters: workspace, agent, date, sub-agents, sort.
import { useEffect, useRef, useState } from 'react';
import type { SourceKind } from '../../../shared/types';
import { formatNumber } from '../lib/format';
import { useConversations, type DateRange } from '../stores/conversations';
import { useWorkspaces } from '../stores/workspaces';
import { firstPageAnswered } from '../stores/conversations';
import { SearchIcon } from './icons';
import { AgentOptions } from './AgentOptions';

export function ConversationFilters() {
  const filters = useConversations((s) => s.filters);
  const total = useConversations((s) => s.total);
  const relaxed = useConversations((s) => s.relaxed);
  const setFilters = useConversations((s) => s.setFilters);
  const workspaces = useWorkspaces((s) => s.workspaces);
  const [query, setQuery] = useState(filters.query);
  const [workspace, setWorkspace] = useState(filters.workspace);
  const searchRef = useRef<HTMLInputElement>(null);

  // Not before the list: the filter's choices can come a moment after the rows.
  useEffect(() => void firstPageAnswered.then(() => useWorkspaces.getState().load()), []);

  // "/" jumps to search from anywhere in the view, as in most browsers of things.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.key === '/' && !e.metaKey && !e.ctrlKey && !(target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
        e.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const searching = filters.query.trim() !== '';
  return (
    <div className="filters">
      <div className="search">
        <SearchIcon />
        <label className="visually-hidden" htmlFor="conv-search">
          Search conversations
        </label>
        <input
          id="conv-search"
          ref={searchRef}
          type="search"
          placeholder="Search conversations   Ctrl+K"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            useConversations.getState().searchSoon(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              document.querySelector<HTMLElement>('.conv-list')?.focus();
            }
            if (e.key === 'Enter') setFilters({ query });
          }}
        />
      </div>
      {/* A row of its own: workspaces are paths, and a path needs the width to be read. */}
      <div className="filter-row workspace-row">
        <label className="field compact">
          <span className="visually-hidden">Workspace</span>
          <input
            list="workspace-options"
            placeholder="All workspaces"
            value={workspace}
            onChange={(e) => {
              setWorkspace(e.target.value);
              if (e.target.value === '' || workspaces.includes(e.target.value)) setFilters({ workspace: e.target.value });
            }}
            onBlur={() => workspace !== filters.workspace && setFilters({ workspace })}
            onKeyDown={(e) => e.key === 'Enter' && setFilters({ workspace })}
            aria-label="Workspace"
          />
          <datalist id="workspace-options">
            {workspaces.map((w) => (
              <option key={w} value={w} />
            ))}
          </datalist>
        </label>
      </div>
      <div className="filter-row">
        <label className="field compact">
          <span className="visually-hidden">Agent</span>
          <select aria-label="Agent" value={filters.source} onChange={(e) => setFilters({ source: e.target.value as SourceKind | '' })}>
            <option value="">All agents</option>
            <AgentOptions />
          </select>
        </label>
        <label className="field compact">
          <span className="visually-hidden">Date</span>
          <select aria-label="Date" value={filters.range} onChange={(e) => setFilters({ range: e.target.value as DateRange })}>
            <option value="any">Any time</option>
            <option value="1d">Past day</option>
            <option value="7d">Past week</option>
            <option value="30d">Past month</option>
            <option value="365d">Past year</option>
          </select>
        </label>
      </div>
      {searching && relaxed && (
        <p className="partial-note" role="status" data-testid="partial-matches">
          Showing partial matches — not every result holds all the words you typed.
        </p>
      )}
      <div className="filter-row secondary">
        <label className="check">
          <input type="checkbox" checked={filters.subagents} onChange={(e) => setFilters({ subagents: e.target.checked })} />
          <span>Sub-agents</span>
        </label>
        <span className="filter-count" aria-live="polite">
          {total === null ? '' : searching ? `${formatNumber(total)} ${total === 1 ? 'match' : 'matches'}` : `${formatNumber(total)} ${total === 1 ? 'conversation' : 'conversations'}`}
        </span>
        {/* Without a query the list is by recency; relevance only means something for a search. */}
        {searching && (
          <label className="field compact sort">
            <span>Sort</span>
            <select aria-label="Sort" value={filters.sort} onChange={(e) => setFilters({ sort: e.target.value as 'recent' | 'relevance' })}>
              <option value="relevance">Relevance</option>
              <option value="recent">Recent</option>
            </select>
          </label>
        )}
      </div>
    </div>
  );
}
