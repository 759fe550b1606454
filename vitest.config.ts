import { defineConfig } from 'vitest/config';

const TESTS = ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/test/**/*.test.ts'];
// The fault suite starts its own PostgreSQL and kills processes: `npm run test:faults`.
const NOT_HERE = ['test/faults/**', 'node_modules/**'];
/** Test files that replace a module (vi.mock): each runs in a process of its own. */
const MOCKING = ['src/ingest/normalize/phone.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The embedded database's migrated data directory and its dump, made once for the run.
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        // A worker process runs test file after test file, loading the source once: loading it
        // anew for each file is about a fifth of the suite's time (docs/benchmarks.md). Every file
        // makes its own app and database and closes them; what the source keeps at module level is
        // pure caches (time zones, formats).
        extends: true,
        test: { name: 'shared', include: TESTS, exclude: [...NOT_HERE, ...MOCKING], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING } },
    ],
  },
});
