import { z } from 'zod';
import { defineCommand } from '../core/command';
import { mintReveal } from './reveal';
import { cardCreateRequest, cardIdParams, cardListQuery, cardUpdateRequest } from './schema';
import * as cards from './service';

// Cards as commands (/cards, /cards/{id}, /cards/{id}/reveal). Issuing one creates it at the
// issuer, so a key makes it exactly-once. Staff freeze and close cards through
// lib/staff/commands.ts (setCardState, audited), wallet holders list theirs through lib/wallet-web.
export const issue = defineCommand({
  name: 'cards.issue',
  input: cardCreateRequest,
  actors: { platform: 'TRANSACT' },
  idempotency: 'optional',
  run: (actor, b) => cards.issue(actor.platformId, b),
});

export const list = defineCommand({
  name: 'cards.list',
  input: cardListQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { limit, cursor, sortOrder, ...filter }) =>
    cards.list(actor.platformId, filter, limit, sortOrder, cursor),
});

export const get = defineCommand({
  name: 'cards.get',
  input: cardIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => cards.get(actor.platformId, b.id),
});

export const update = defineCommand({
  name: 'cards.update',
  input: z.object({ id: z.string(), body: cardUpdateRequest }),
  actors: { platform: 'TRANSACT' },
  idempotency: 'none',
  run: (actor, b) => cards.update(actor.platformId, b.id, b.body),
});

/** A signed, single-use, short-lived URL of the page that shows the card's details. */
export const reveal = defineCommand({
  name: 'cards.reveal',
  input: cardIdParams,
  actors: { platform: 'TRANSACT' },
  idempotency: 'none',
  run: (actor, b) => mintReveal(actor.platformId, b.id),
});
