// The read worker when Throughline runs from its TypeScript sources (tests, the CLI through tsx,
// the benchmarks): a worker thread does not inherit the parent's tsx hooks, so it registers them
// itself before loading read-worker.ts. Bundled builds start their built read-worker instead.
import { register } from 'tsx/esm/api';

register();
await import('./read-worker.ts');
