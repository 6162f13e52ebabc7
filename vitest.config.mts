import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// One suite, two databases. scripts/test.mjs runs it once per database (CORRIDOR_TEST_DB):
// the embedded PGlite funnels every connection into one session, so its run is one file at a
// time; PostgreSQL takes files in parallel.
const embedded = (process.env.CORRIDOR_TEST_DB ?? 'embedded') === 'embedded';

export default defineConfig({
  resolve: { alias: { '@': path.dirname(fileURLToPath(import.meta.url)) } },
  test: {
    name: embedded ? 'embedded' : 'postgres',
    include: ['lib/**/*.test.ts', 'tests/**/*.test.ts'],
    globalSetup: ['tests/global-setup.ts'],
    setupFiles: ['tests/setup.ts'],
    fileParallelism: !embedded,
    maxWorkers: embedded ? 1 : 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
