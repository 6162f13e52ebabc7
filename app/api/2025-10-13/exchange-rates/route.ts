import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as rates from '@/lib/exchange-rates/commands';
import { errors } from '@/lib/http/docs';
import { exchangeRateList, exchangeRateQuery } from '@/lib/exchange-rates/schema';

// GET /exchange-rates – cached corridor rates with this platform's fees included
const getExchangeRates = commandEndpoint(
  {
    method: 'GET',
    path: '/exchange-rates',
    answer: ok,
    summary: 'Get exchange rates',
    description:
      "Rates for every corridor between the currencies the service carries, refreshed every five minutes (updatedAt is the start of the window), with the service fee and this platform's configured fees included. Unknown currency codes answer INVALID_CURRENCY.",
    tags: ['Exchange Rates'],
    query: exchangeRateQuery,
    responses: { 200: { description: 'Successful operation', schema: exchangeRateList }, ...errors(400, 401, 403) },
  },
  rates.listExchangeRates,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getExchangeRates);
