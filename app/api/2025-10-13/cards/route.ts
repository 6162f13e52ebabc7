import { commandEndpoint, created, ok, routes } from '@/lib/http/endpoint';
import * as cards from '@/lib/cards/commands';
import { errors } from '@/lib/http/docs';
import { card, cardCreateRequest, cardList, cardListQuery } from '@/lib/cards/schema';

// POST /cards – issue a card to a KYC-approved cardholder, bound to its funding sources
const create = commandEndpoint(
  {
    method: 'POST',
    path: '/cards',
    answer: created,
    summary: 'Issue a card',
    tags: ['Cards'],
    body: cardCreateRequest,
    responses: { 201: { description: 'Card created', schema: card }, ...errors(400, 401, 403, 404, 501) },
  },
  cards.issue,
  ({ body }) => body,
);

// GET /cards – filtered by cardholder, funding account, state or platformCardId; cursor-paginated
const list = commandEndpoint(
  {
    method: 'GET',
    path: '/cards',
    answer: ok,
    summary: 'List cards',
    tags: ['Cards'],
    query: cardListQuery,
    responses: { 200: { description: 'Successful operation', schema: cardList }, ...errors(400, 401, 403) },
  },
  cards.list,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create, list);
