import { afterAll, inject } from 'vitest';
import { flushConformance } from './support/conformance';
import { createCorridor } from '@/lib/boot';
import { setAppCorridor } from '@/lib/core/context';

// Each test worker talks to the database the global setup started.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.CORRIDOR_EMBEDDED = inject('embedded') ? '1' : '0';
process.env.CORRIDOR_MODE = 'sandbox';
// One log line per request would bury the test report; tests that read the log raise the level.
process.env.CORRIDOR_LOG_LEVEL ??= 'warn';
// A fixed test-only master key (lib/core/crypto/master-key.ts): without it the first GET /config
// would write ./data/secret.key into the working tree.
process.env.CORRIDOR_SECRET_KEY ??= '7e57'.repeat(16);
// The test process's instance, built as every server process builds its own (instrumentation.ts),
// and its app handle: what the route handlers the tests call run under. A test that needs the
// other mode switches to an instance of it (tests/support/mode.ts); one that needs a second
// instance builds it with createCorridor.
setAppCorridor(createCorridor());

afterAll(() => flushConformance(inject('conformanceDir')));
