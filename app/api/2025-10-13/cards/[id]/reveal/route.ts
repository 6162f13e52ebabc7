import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as cards from '@/lib/cards/commands';
import { errors } from '@/lib/http/docs';
import { cardIdParams, cardReveal } from '@/lib/cards/schema';

// POST /cards/{id}/reveal – a signed, single-use, short-lived URL of the page showing PAN, CVV, expiry
const reveal = commandEndpoint(
  {
    method: 'POST',
    path: '/cards/{id}/reveal',
    answer: ok,
    summary: 'Reveal card details',
    tags: ['Cards'],
    params: cardIdParams,
    responses: { 200: { description: 'Reveal URL minted', schema: cardReveal }, ...errors(401, 403, 404) },
  },
  cards.reveal,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(reveal);
