import { defineCommand } from '../core/command';
import { customerInternalAccountsQuery } from './schema';
import * as accounts from './service';

// Customers' internal accounts as commands (GET /customers/internal-accounts).
export const listCustomerAccounts = defineCommand({
  name: 'accounts.customers.list',
  input: customerInternalAccountsQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { limit, cursor, ...f }) =>
    accounts.list(
      actor.platformId,
      { owner: 'customers', customerId: f.customerId, currency: f.currency, type: f.type },
      limit,
      cursor,
    ),
});
