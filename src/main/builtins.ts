// The Node built-ins of the hook's common path (its modules and paths-light.ts), taken with
// process.getBuiltinModule (Node >= 20.16; the project needs 20.19) instead of `import`. An ES module
// that imports 'node:fs' gets its whole namespace built, which runs every lazy getter of fs: its
// streams came with it (all of stream: 20 of Node's internal modules), and 'node:util' brought MIME
// types. getBuiltinModule hands back the module object as `require` would, loading nothing else.
// A later prompt's CPU went 123.8 -> 118.8 ms beside 91.6 for `node -e 0` (BENCHMARKS.md, ingest stop 25).
export const fs = process.getBuiltinModule('node:fs');
export const os = process.getBuiltinModule('node:os');
export const path = process.getBuiltinModule('node:path');
export const { parseArgs } = process.getBuiltinModule('node:util');
