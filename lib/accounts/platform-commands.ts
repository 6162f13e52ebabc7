import { defineCommand } from '../core/command';
import { platformInternalAccountsQuery } from './schema';
import * as accounts from './service';

// The platform's own internal accounts as a query (GET /platform/internal-accounts).
export const listPlatformAccounts = defineCommand({
  name: 'accounts.platform.list',
  input: platformInternalAccountsQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { limit, cursor, ...f }) =>
    accounts.list(actor.platformId, { owner: 'platform', currency: f.currency, type: f.type }, limit, cursor),
});
