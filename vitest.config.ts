// Two projects: everything under test/ runs as plain Node tests in parallel; the end-to-end tests
// (test/e2e) first get the renderer built once (globalSetup) and run one file at a time, each
// with its own Chromium, so a 2-core machine is not asked for three browsers at once.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Dates a person reads are local (the CLI's days, the window's "Yesterday"): one zone for every
    // run, so a snapshot made here reads the same on a machine elsewhere.
    env: { TZ: 'UTC' },
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**', '**/node_modules/**'] },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          // A slow CI machine gets time; a passing poll returns at once anyway.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
