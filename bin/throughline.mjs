#!/usr/bin/env node
// The CLI runs the TypeScript sources on the user's Node (20+) through tsx, so `npx throughline`
// works right after `npm ci` with no build step. The Electron app bundles the same modules itself.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
