// A message that names a project by its folder ("how did notify-svc make sure …", "the feature
// store's online check") is about work in that project, wherever it is typed: a conversation there
// gets the same-workspace prior. Only names a person would not write by chance count: a folder name
// of two or more words ("payments-api", "feature_store"), or one word that is not everyday English
// ("throughline"). A folder called "notes", "infra" or "app" is named by accident in most messages.
import { wordNeighbors, type WordNeighbors } from './word-neighbors.js';

/** Lower case, separators as spaces, a possessive dropped: "Feature-Store's" → " feature store ". */
function words(s: string): string {
  return ` ${s.toLowerCase().replace(/['’]s\b/g, ' ').replace(/[^a-z0-9]+/g, ' ').trim()} `;
}

/** The folder's last part, as words; null when it is not a name a message would carry by chance. */
function distinctName(workspace: string, table: () => WordNeighbors): string | null {
  const base = workspace.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? '';
  const name = words(base).trim();
  if (name.length < 4) return null;
  if (name.includes(' ')) return name;
  // Without the word table (a broken install) no single word can be told from English.
  const english = table();
  return /^[a-z]+$/.test(name) && english.rank('house') !== null && english.rank(name) === null ? name : null;
}

/** Whether the message names a conversation's workspace; remembered per workspace for one message. */
export function workspaceNamer(text: string, table: () => WordNeighbors = wordNeighbors): (workspace: string | null) => boolean {
  const said = words(text);
  const known = new Map<string, boolean>();
  return (workspace) => {
    if (!workspace) return false;
    let named = known.get(workspace);
    if (named === undefined) {
      const name = distinctName(workspace, table);
      named = name !== null && said.includes(` ${name} `);
      known.set(workspace, named);
    }
    return named;
  };
}
