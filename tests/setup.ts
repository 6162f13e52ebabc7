import { afterAll, inject } from 'vitest';
import { flushConformance } from './support/conformance';

// Each test worker talks to the database the global setup started.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.CORRIDOR_EMBEDDED = inject('embedded') ? '1' : '0';
process.env.CORRIDOR_MODE = 'sandbox';

afterAll(() => flushConformance(inject('conformanceDir')));
