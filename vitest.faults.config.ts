import { defineConfig } from 'vitest/config';

/** `npm run test:faults`: the fault suite alone, one file at a time (it starts its own PostgreSQL). */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
