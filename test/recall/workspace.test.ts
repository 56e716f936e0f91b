// "This workspace only" means the repository. personal-recall-plugin.md: "Where to look: This workspace
// only · All my workspaces"; suggested-context-personal-agent.md scores "Same workspace/repo: +3". An
// agent working in /repo/src is in the repository /repo: it finds what was said in /repo and in
// /repo/web, with the workspace signal, and nothing of /repo-other (a sibling that merely shares the prefix).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRecall, NO_WORKSPACE } from '../../src/main/recall/index.js';
import { foldersUp, tooBroad, underRoot, workspaceRoot } from '../../src/main/recall/workspace.js';
import { createWorkspaceLookup } from '../../src/main/store/workspace-roots.js';
import { buildIndex, NOW, tmpDir } from './helpers.js';

const when = new Date(NOW).toISOString();
const noGit = () => false;

describe('workspaceRoot', () => {
  it('is the nearest git repository on this disk, from any folder inside it', () => {
    const repo = path.join(tmpDir(), 'repo');
    fs.mkdirSync(path.join(repo, 'src', 'deep'), { recursive: true });
    fs.mkdirSync(path.join(repo, '.git'));
    const known = () => [];
    expect(workspaceRoot(path.join(repo, 'src', 'deep'), { known })).toBe(repo);
    expect(workspaceRoot(`${repo}/`, { known })).toBe(repo);
    // A worktree or submodule has a .git file, not a folder.
    const sub = path.join(repo, 'vendor', 'lib');
    fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, '.git'), 'gitdir: ../../.git/modules/lib\n');
    expect(workspaceRoot(path.join(sub, 'x'), { known })).toBe(sub);
  });

  it('without a repository, is the highest folder above it that an agent recorded as its project', () => {
    const known = (c: readonly string[]) => c.filter((d) => d === '/Users/user/repo' || d === '/Users/user/repo/src');
    expect(workspaceRoot('/Users/user/repo/src/lib', { known, hasGit: noGit, home: '/home/me' })).toBe('/Users/user/repo');
    // Nothing known: the folder itself.
    expect(workspaceRoot('/opt/elsewhere/x', { known: () => [], hasGit: noGit, home: '/home/me' })).toBe('/opt/elsewhere/x');
  });

  it('is never a home folder or above, though a dotfiles repository or an agent started in ~ makes it look like one', () => {
    const home = '/home/me';
    const gitInHome = (d: string) => d === home;
    const knownHome = (c: readonly string[]) => c.filter((d) => d === home || d === '/');
    expect(workspaceRoot('/home/me/project/src', { known: knownHome, hasGit: gitInHome, home })).toBe('/home/me/project/src');
    expect(tooBroad('/Users/someone', home)).toBe(true);
    expect(tooBroad('/', home)).toBe(true);
    expect(tooBroad('/home/me/project', home)).toBe(false);
    expect(foldersUp('/a/b/')).toEqual(['/a/b', '/a', '/']);
  });

  it('holds the folders under it, not a sibling sharing its prefix', () => {
    expect(underRoot('/repo', '/repo/')).toBe(true);
    expect(underRoot('/repo/web', '/repo')).toBe(true);
    expect(underRoot('/repo-other', '/repo')).toBe(false);
    expect(underRoot('C:\\code\\repo\\web', 'C:\\code\\repo')).toBe(true);
    expect(underRoot(null, '/repo')).toBe(false);
  });
});

describe('scope "workspace" is the repository', () => {
  const convs = [
    { key: 'root', workspace: '/Users/user/repo', title: 'Kestrel importer', entries: ['the kestrel importer drops quoted commas', 'Fixed the quoting.'] },
    { key: 'web', workspace: '/Users/user/repo/web', title: 'Kestrel web form', entries: ['the kestrel form posts twice', 'Debounced it.'] },
    { key: 'sibling', workspace: '/Users/user/repo-other', title: 'Kestrel elsewhere', entries: ['kestrel in another project', 'ok'] },
  ];

  it('from /Users/user/repo/src finds what was said in /Users/user/repo and below it, with the workspace signal', () => {
    const { db, ids } = buildIndex(convs);
    const recall = createRecall(db);
    const r = recall.suggest({ text: 'kestrel importer form', workspace: '/Users/user/repo/src', scope: 'workspace', strategy: 'signals', now: when });
    const found = r.suggestions.map((s) => s.id);
    expect(found).toContain(ids.get('root'));
    expect(found).toContain(ids.get('web'));
    expect(found).not.toContain(ids.get('sibling'));
    for (const s of r.suggestions) expect(s.signals.find((g) => g.name === 'workspace')).toMatchObject({ points: 3 });
    // Everywhere: the sibling comes too, and gets no workspace signal.
    const all = recall.suggest({ text: 'kestrel importer form', workspace: '/Users/user/repo/src', scope: 'everywhere', strategy: 'signals', now: when });
    const sibling = all.suggestions.find((s) => s.id === ids.get('sibling'));
    expect(sibling?.signals.some((g) => g.name === 'workspace')).toBe(false);
    db.close();
  });

  it('recall_conversations with a folder inside the repository searches the repository', () => {
    const { db, ids } = buildIndex(convs);
    const r = createRecall(db).recall({ query: 'kestrel', workspace: '/Users/user/repo/src' });
    expect(r.hits.map((h) => h.id).sort()).toEqual([ids.get('root'), ids.get('web')].sort());
    db.close();
  });

  it('with no workspace known, says so instead of searching everywhere', () => {
    const { db } = buildIndex(convs);
    const r = createRecall(db).suggest({ text: 'kestrel importer form', scope: 'workspace', strategy: 'signals', now: when });
    expect(r.suggestions).toEqual([]);
    expect(r.reason).toBe(NO_WORKSPACE);
    db.close();
  });

  it('asks the index only about the folders it is given', () => {
    const { db } = buildIndex(convs);
    const known = createWorkspaceLookup(db);
    expect(known(['/Users/user/repo/src', '/Users/user/repo', '/Users/user'])).toEqual(['/Users/user/repo']);
    db.close();
  });
});
