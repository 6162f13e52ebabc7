import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { exchangeRateList, exchangeRateQuery } from '@/lib/exchange-rates/schema';
import { listRates } from '@/lib/exchange-rates/service';

// GET /exchange-rates – cached corridor rates with this platform's fees included
const getExchangeRates = endpoint(
  {
    method: 'GET',
    path: '/exchange-rates',
    summary: 'Get exchange rates',
    description:
      "Rates for every corridor between the currencies the service carries, refreshed every five minutes (updatedAt is the start of the window), with the service fee and this platform's configured fees included. Unknown currency codes answer INVALID_CURRENCY.",
    tags: ['Exchange Rates'],
    permission: 'VIEW',
    query: exchangeRateQuery,
    responses: { 200: { description: 'Successful operation', schema: exchangeRateList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query }) => ok(await listRates(actor.platformId, query)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getExchangeRates);
