import { created, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { card, cardCreateRequest, cardList, cardListQuery } from '@/lib/cards/schema';
import * as cards from '@/lib/cards/service';

// POST /cards – issue a card to a KYC-approved cardholder, bound to its funding sources
const create = endpoint(
  {
    method: 'POST',
    path: '/cards',
    summary: 'Issue a card',
    tags: ['Cards'],
    permission: 'TRANSACT',
    body: cardCreateRequest,
    idempotent: true,
    answer: created,
    responses: { 201: { description: 'Card created', schema: card }, ...errors(400, 401, 403, 404, 501) },
  },
  async ({ actor, body }) => cards.issue(actor.platformId, body),
);

// GET /cards – filtered by cardholder, funding account, state or platformCardId; cursor-paginated
const list = endpoint(
  {
    method: 'GET',
    path: '/cards',
    summary: 'List cards',
    tags: ['Cards'],
    permission: 'VIEW',
    query: cardListQuery,
    responses: { 200: { description: 'Successful operation', schema: cardList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query: { limit, cursor, sortOrder, ...filter } }) =>
    ok(await cards.list(actor.platformId, filter, limit, sortOrder, cursor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(create, list);
