import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { card, cardIdParams, cardUpdateRequest } from '@/lib/cards/schema';
import * as cards from '@/lib/cards/service';

// GET /cards/{id} – one card (never its PAN or CVV: see POST /cards/{id}/reveal)
const getCard = endpoint(
  {
    method: 'GET',
    path: '/cards/{id}',
    summary: 'Get a card',
    tags: ['Cards'],
    permission: 'VIEW',
    params: cardIdParams,
    responses: { 200: { description: 'Successful operation', schema: card }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await cards.get(actor.platformId, params.id)),
);

// PATCH /cards/{id} – state (ACTIVE ⇄ FROZEN, → CLOSED), funding sources, per-transaction limit
const updateCard = endpoint(
  {
    method: 'PATCH',
    path: '/cards/{id}',
    summary: 'Update a card',
    tags: ['Cards'],
    permission: 'TRANSACT',
    params: cardIdParams,
    body: cardUpdateRequest,
    responses: { 200: { description: 'Card updated', schema: card }, ...errors(400, 401, 403, 404, 409) },
  },
  async ({ actor, params, body }) => ok(await cards.update(actor.platformId, params.id, body)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getCard, updateCard);
