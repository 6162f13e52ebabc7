import { afterAll, inject } from 'vitest';
import { flushConformance } from './support/conformance';
import { wire } from '@/lib/wiring';

// Each test worker talks to the database the global setup started.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.CORRIDOR_EMBEDDED = inject('embedded') ? '1' : '0';
process.env.CORRIDOR_MODE = 'sandbox';
// One log line per request would bury the test report; tests that read the log raise the level.
process.env.CORRIDOR_LOG_LEVEL ??= 'warn';
// A fixed test-only master key (lib/core/crypto/master-key.ts): without it the first GET /config
// would write ./data/secret.key into the working tree.
process.env.CORRIDOR_SECRET_KEY ??= '7e57'.repeat(16);
// Job kinds, sweeps and ports, plugged in as every server process does at start.
wire();

afterAll(() => flushConformance(inject('conformanceDir')));
