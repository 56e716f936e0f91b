#!/usr/bin/env python3
"""Rebuilds README.md from its hand-written head, the CLI's own --help texts and docs/*.md."""
import re, subprocess, pathlib
root = pathlib.Path(__file__).resolve().parent.parent
def demote(text):
    return re.sub(r'^(#+) ', lambda m: '#' + m.group(1) + ' ', text, flags=re.M)
head = (root / 'docs/readme-head.md').read_text()
cmds = ['index','stats','suggest','search','read','inspect','history','forget','serve','mcp','hook','install','uninstall','activity']
cli = ['## The command line\n\n`npx throughline COMMAND` (or `node bin/throughline.mjs COMMAND`). Every command takes `--help`; '
       '`--json` prints one JSON object for programs; the index is `--db FILE`, else `$THROUGHLINE_DB`, else '
       '`$XDG_DATA_HOME/throughline/index.sqlite`. Settings live in `$XDG_CONFIG_HOME/throughline/settings.json` '
       '(`$THROUGHLINE_SETTINGS` overrides), with optional operator defaults and pins in `operator.json` beside it.\n']
for c in cmds:
    out = subprocess.run(['node', 'bin/throughline.mjs', c, '--help'], cwd=root, capture_output=True, text=True).stdout
    cli.append(f'### `throughline {c}`\n\n```\n{out.rstrip()}\n```\n')
parts = [head.rstrip() + '\n', '\n'.join(cli)]
for doc in ['agents.md', 'import-format.md', 'ranking.md', 'desktop.md', 'reliability.md', 'performance.md', 'development.md']:
    p = root / 'docs' / doc
    if p.exists():
        text = p.read_text()
        parts.append(demote(text) if text.startswith('# ') else text)
(root / 'README.md').write_text('\n'.join(p.rstrip() + '\n' for p in parts))
