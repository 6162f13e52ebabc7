import { z } from 'zod';
import { defineCommand } from '../core/command';
import { documentIdParams, documentListQuery, documentReplace, documentUpload } from './schema';
import * as documents from './service';

// Verification documents as commands (/documents and /documents/{documentId}); the file arrives
// as the input's `file` (a multipart part over REST).
export const upload = defineCommand({
  name: 'documents.upload',
  input: documentUpload,
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => documents.upload(actor.platformId, b),
});

export const list = defineCommand({
  name: 'documents.list',
  input: documentListQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, q) => documents.list(actor.platformId, q.documentHolder, q.limit, q.cursor),
});

export const get = defineCommand({
  name: 'documents.get',
  input: documentIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => documents.get(actor.platformId, b.documentId),
});

export const replace = defineCommand({
  name: 'documents.replace',
  input: z.object({ documentId: z.string(), body: documentReplace }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => documents.replace(actor.platformId, b.documentId, b.body),
});

export const remove = defineCommand({
  name: 'documents.remove',
  input: documentIdParams,
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => documents.remove(actor.platformId, b.documentId),
});
