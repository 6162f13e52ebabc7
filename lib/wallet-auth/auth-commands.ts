import { z } from 'zod';
import { defineCommand } from '../core/command';
import { signedRequest } from '../core/fields';
import * as credentials from './credentials';
import * as delegatedKeys from './delegated-keys';
import * as login from './login';
import {
  accountQuery,
  challengeRequest,
  credentialCreate,
  credentialVerify,
  delegatedKeyCreate,
  delegatedKeyQuery,
  refreshRequest,
} from './schema';
import * as sessions from './sessions';

// The platform's management of embedded-wallet credentials, sessions and delegated keys as
// commands (/auth/...): VIEW to list, MANAGE to change who can act for a wallet. The changes answer
// a challenge first and act on the retry the wallet holder signed, so the request as signed is part
// of their input (a signature covers it); none takes an Idempotency-Key (none ever has): the signed
// retry is what makes a repeat harmless.
const view = { platform: 'VIEW' } as const;
const manage = { platform: 'MANAGE' } as const;
const id = z.string();

export const addCredential = defineCommand({
  name: 'auth.credentials.create',
  input: z.object({ body: credentialCreate, signed: signedRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => credentials.add(actor.platformId, b.body, b.signed),
});

export const listCredentials = defineCommand({
  name: 'auth.credentials.list',
  input: accountQuery,
  actors: view,
  idempotency: 'none',
  run: (actor, q) => credentials.list(actor.platformId, q.accountId),
});

export const revokeCredential = defineCommand({
  name: 'auth.credentials.revoke',
  input: z.object({ id, signed: signedRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => credentials.revoke(actor.platformId, b.id, b.signed),
});

export const challengeCredential = defineCommand({
  name: 'auth.credentials.challenge',
  input: z.object({ id, body: challengeRequest, signed: signedRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => login.challenge(actor.platformId, b.id, b.body?.clientPublicKey, b.signed),
});

export const verifyCredential = defineCommand({
  name: 'auth.credentials.verify',
  input: z.object({ id, body: credentialVerify, signed: signedRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => login.verify(actor.platformId, b.id, b.body, b.signed),
});

export const listSessions = defineCommand({
  name: 'auth.sessions.list',
  input: accountQuery,
  actors: view,
  idempotency: 'none',
  run: (actor, q) => sessions.list(actor.platformId, q.accountId),
});

export const revokeSession = defineCommand({
  name: 'auth.sessions.revoke',
  input: z.object({ id, signed: signedRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => sessions.revoke(actor.platformId, b.id, b.signed),
});

export const refreshSession = defineCommand({
  name: 'auth.sessions.refresh',
  input: z.object({ id, body: refreshRequest, signed: signedRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => sessions.refresh(actor.platformId, b.id, b.body.clientPublicKey, b.signed),
});

export const createDelegatedKey = defineCommand({
  name: 'auth.delegated-keys.create',
  input: z.object({ body: delegatedKeyCreate, signed: signedRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => delegatedKeys.create(actor.platformId, b.body, b.signed),
});

export const listDelegatedKeys = defineCommand({
  name: 'auth.delegated-keys.list',
  input: delegatedKeyQuery,
  actors: view,
  idempotency: 'none',
  run: (actor, q) => delegatedKeys.list(actor.platformId, q),
});

export const getDelegatedKey = defineCommand({
  name: 'auth.delegated-keys.get',
  input: z.object({ id }),
  actors: view,
  idempotency: 'none',
  run: (actor, b) => delegatedKeys.get(actor.platformId, b.id),
});

export const revokeDelegatedKey = defineCommand({
  name: 'auth.delegated-keys.revoke',
  input: z.object({ id }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => delegatedKeys.revoke(actor.platformId, b.id),
});
