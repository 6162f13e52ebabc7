import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as cards from '@/lib/cards/commands';
import { errors } from '@/lib/http/docs';
import { card, cardIdParams, cardUpdateRequest } from '@/lib/cards/schema';

// GET /cards/{id} – one card (never its PAN or CVV: see POST /cards/{id}/reveal)
const getCard = commandEndpoint(
  {
    method: 'GET',
    path: '/cards/{id}',
    answer: ok,
    summary: 'Get a card',
    tags: ['Cards'],
    params: cardIdParams,
    responses: { 200: { description: 'Successful operation', schema: card }, ...errors(401, 403, 404) },
  },
  cards.get,
  ({ params }) => params,
);

// PATCH /cards/{id} – state (ACTIVE ⇄ FROZEN, → CLOSED), funding sources, per-transaction limit
const updateCard = commandEndpoint(
  {
    method: 'PATCH',
    path: '/cards/{id}',
    answer: ok,
    summary: 'Update a card',
    tags: ['Cards'],
    params: cardIdParams,
    body: cardUpdateRequest,
    responses: { 200: { description: 'Card updated', schema: card }, ...errors(400, 401, 403, 404, 409) },
  },
  cards.update,
  ({ params, body }) => ({ id: params.id, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getCard, updateCard);
