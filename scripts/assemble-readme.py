#!/usr/bin/env python3
"""Rebuilds README.md from its hand-written head, the CLI's own --help texts and docs/*.md."""
import re, subprocess, pathlib
root = pathlib.Path(__file__).resolve().parent.parent
def demote(text):
    return re.sub(r'^(#+) ', lambda m: '#' + m.group(1) + ' ', text, flags=re.M)
head = (root / 'docs/readme-head.md').read_text()
cmds = ['index','stats','suggest','search','read','inspect','history','forget','exclude','serve','mcp','hook','install','uninstall','activity']
cli = ['## The command line\n\n`npx throughline COMMAND` (or `node bin/throughline.mjs COMMAND`); `npx throughline --version`. Every command takes `--help`; '
       '`--json` prints one JSON object for programs; the index is `--db FILE`, else `$THROUGHLINE_DB`, else '
       '`$XDG_DATA_HOME/throughline/index.sqlite`. Settings live in `$XDG_CONFIG_HOME/throughline/settings.json` '
       '(`$THROUGHLINE_SETTINGS` overrides), with optional operator defaults and pins in `operator.json` beside it.\n\n'
       'Three kinds of output. On a terminal, for a person: titles, aligned columns, a blank line between turns, '
       'the matched words highlighted; colour unless `NO_COLOR` is set (`FORCE_COLOR` forces it, `FORCE_COLOR=0` '
       'turns it off). Through a pipe or into a file, the agents\' text: exactly what the recall and history tools '
       'return, for scripts and agents that run the CLI. With `--json`, the result objects (and an error as one '
       '`{"error": {"command", "kind", "message"}}` object on stderr). A mistake is one line naming the command '
       '(`throughline search: unknown option --limt; the options are …`), exit code 2; `throughline history` alone '
       'lists its subcommands. Control characters from transcripts, titles, file names and agents\' names (ESC, C1, '
       'bidi overrides) print as visible escapes (`\\x1b`, `\\u202e`), never as terminal commands; `--json` keeps '
       'them as data. A reader that goes away (`| head -1`) ends a command quietly.\n']
for c in cmds:
    out = subprocess.run(['node', 'bin/throughline.mjs', c, '--help'], cwd=root, capture_output=True, text=True).stdout
    cli.append(f'### `throughline {c}`\n\n```\n{out.rstrip()}\n```\n')
parts = [head.rstrip() + '\n', '\n'.join(cli)]
for doc in ['agents.md', 'seeds.md', 'import-format.md', 'ranking.md', 'desktop.md', 'reliability.md', 'performance.md', 'development.md']:
    p = root / 'docs' / doc
    if p.exists():
        text = p.read_text()
        parts.append(demote(text) if text.startswith('# ') else text)
(root / 'README.md').write_text('\n'.join(p.rstrip() + '\n' for p in parts))
