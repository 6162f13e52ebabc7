import { z } from 'zod';
import { defineCommand } from '../../core/command';
import { ownerCreate, ownerIdParams, ownerListQuery, ownerUpdate } from './schema';
import * as owners from './service';

// A business customer's beneficial owners as commands (/beneficial-owners and below).
export const create = defineCommand({
  name: 'beneficial-owners.create',
  input: ownerCreate,
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => owners.create(actor.platformId, b),
});

export const list = defineCommand({
  name: 'beneficial-owners.list',
  input: ownerListQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, q) => owners.list(actor.platformId, q.customerId, q.limit, q.cursor),
});

export const get = defineCommand({
  name: 'beneficial-owners.get',
  input: ownerIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => owners.get(actor.platformId, b.beneficialOwnerId),
});

export const update = defineCommand({
  name: 'beneficial-owners.update',
  input: z.object({ beneficialOwnerId: z.string(), body: ownerUpdate }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => owners.update(actor.platformId, b.beneficialOwnerId, b.body),
});
