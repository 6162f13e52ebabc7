import { z } from 'zod';
import { defineCommand } from '../core/command';
import { umaProviderQuery } from './schema';
import { listUmaProviders } from './service';

// GET /uma-providers as a query; the query string's true/false flag arrives as the boolean it is.
export const list = defineCommand({
  name: 'uma-providers.list',
  input: umaProviderQuery.extend({ hasBlockedProviders: z.boolean().optional() }),
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: async (_actor, q) => listUmaProviders(q),
});
