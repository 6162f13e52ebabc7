import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { cardIdParams, cardReveal } from '@/lib/cards/schema';
import { mintReveal } from '@/lib/cards/reveal';

// POST /cards/{id}/reveal – a signed, single-use, short-lived URL of the page showing PAN, CVV, expiry
const reveal = endpoint(
  {
    method: 'POST',
    path: '/cards/{id}/reveal',
    summary: 'Reveal card details',
    tags: ['Cards'],
    permission: 'TRANSACT',
    params: cardIdParams,
    responses: { 200: { description: 'Reveal URL minted', schema: cardReveal }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await mintReveal(actor.platformId, params.id)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(reveal);
