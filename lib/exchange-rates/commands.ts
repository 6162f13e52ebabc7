import { defineCommand } from '../core/command';
import { money } from '../core/fields';
import { exchangeRateQuery } from './schema';
import { listRates } from './service';

// GET /exchange-rates as a query. The query string spells sendingAmount as digits; the command
// takes it as the amount it is (an integer in the smallest unit).
export const listExchangeRates = defineCommand({
  name: 'exchange-rates.list',
  input: exchangeRateQuery.extend({ sendingAmount: money().optional() }),
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, q) => listRates(actor.platformId, q),
});
