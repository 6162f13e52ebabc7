import { z } from 'zod';
import { defineCommand } from '../core/command';
import { tokenCreate, tokenIdParams, tokenListQuery, tokenRotate } from './schema';
import * as tokens from './service';

// The platform's API tokens as commands (/tokens, /tokens/{tokenId}, /tokens/{tokenId}/rotate).
// Issuing and rotating honour an Idempotency-Key as these operations always have: a retry under
// the key does not issue a second token or rotate twice.
export const createToken = defineCommand({
  name: 'tokens.create',
  input: tokenCreate,
  actors: { platform: 'MANAGE' },
  idempotency: 'optional',
  run: (actor, b) => tokens.create(actor.platformId, b.name, b.permissions),
});

const at = (s: string | undefined) => (s ? new Date(s) : undefined);

export const listTokens = defineCommand({
  name: 'tokens.list',
  input: tokenListQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { limit, cursor, ...f }) =>
    tokens.list(
      actor.platformId,
      {
        name: f.name,
        createdAfter: at(f.createdAfter),
        createdBefore: at(f.createdBefore),
        updatedAfter: at(f.updatedAfter),
        updatedBefore: at(f.updatedBefore),
      },
      limit,
      cursor,
    ),
});

export const getToken = defineCommand({
  name: 'tokens.get',
  input: tokenIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => tokens.get(actor.platformId, b.tokenId),
});

export const revokeToken = defineCommand({
  name: 'tokens.revoke',
  input: tokenIdParams,
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  // The calling token is named so that revoking itself is refused (lib/tokens/service.ts).
  run: (actor, b) => tokens.revoke(actor.platformId, b.tokenId, actor.kind === 'platform' ? actor.tokenId : undefined),
});

export const rotateToken = defineCommand({
  name: 'tokens.rotate',
  input: z.object({ tokenId: z.string(), body: tokenRotate }),
  actors: { platform: 'MANAGE' },
  idempotency: 'optional',
  run: (actor, b) => tokens.rotate(actor.platformId, b.tokenId, b.body.overlapSeconds),
});
