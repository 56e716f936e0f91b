// `throughline` for the reliability tests' child processes: bin/throughline.mjs's main, bundled
// (see bundle.ts) so that dozens of starts stay cheap.
import { main } from '../../src/main/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
