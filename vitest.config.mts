import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// One suite, two databases. scripts/test.mjs runs it once per database (CORRIDOR_TEST_DB):
// the embedded PGlite funnels every connection into one session, so its run is one file at a
// time; PostgreSQL takes files in parallel.
const embedded = (process.env.CORRIDOR_TEST_DB ?? 'embedded') === 'embedded';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.dirname(fileURLToPath(import.meta.url)),
      // Next.js resolves 'server-only' itself; outside it, the marker is an empty module.
      'server-only': path.join(path.dirname(fileURLToPath(import.meta.url)), 'tests', 'support', 'server-only.ts'),
    },
  },
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
    // next-auth imports 'next/server' the way bundlers resolve it (no file extension): let vite
    // resolve it instead of Node's ESM loader.
    server: { deps: { inline: ['next-auth'] } },
  },
});
