// The parse worker when Throughline runs from its TypeScript sources (tests, the CLI through tsx, the
// benchmarks): a worker thread does not inherit the parent's tsx hooks, so it registers them itself
// before loading parse-worker.ts. Bundled builds start their built parse-worker instead.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
