import { defineCommand } from '../core/command';
import { discoveryQuery } from './schema';
import { listDiscoveries } from './service';

// GET /discoveries as a query: the directory of receiving institutions (the same for every platform).
export const list = defineCommand({
  name: 'discoveries.list',
  input: discoveryQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: async (_actor, q) => listDiscoveries(q),
});
