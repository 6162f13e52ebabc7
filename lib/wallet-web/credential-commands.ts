import { z } from 'zod';
import { now } from '../core/clock';
import { defineCommand } from '../core/command';
import { db } from '../core/db';
import { DomainError } from '../core/errors';
import { isId } from '../core/ids';
import { API_BASE } from '../core/mode';
import { parseBodyOrThrow } from '../core/validation';
import * as credentials from '../wallet-auth/credentials';
import { findCredential } from '../wallet-auth/repository';
import { credentialCreate, exportRequest } from '../wallet-auth/schema';
import * as sessions from '../wallet-auth/sessions';
import type { SignedRequest } from '../wallet-auth/signed-retry';
import * as wallet from '../wallet-auth/wallet';
import { holder } from './commands';

// The wallet holder's credentials, session and recovery phrase, as the customer actor of their
// wallet session. Each change is a signed retry (lib/wallet-auth/signed-retry.ts): the first call
// answers the payload for the browser's session key to stamp, the same call with the stamp acts.
const customer = { customer: true } as const;

/** The signed-retry headers the browser sent with the call. */
export const signature = z
  .object({
    stamp: z.string().max(16_384).nullable().default(null),
    requestId: z.string().max(255).nullable().default(null),
  })
  .default({ stamp: null, requestId: null });

/**
 * The request as the signed retry binds it: the API operation's method and path with the body the
 * command sends it (built from the command's input, so the first call and the retry bind alike).
 */
function signedCall(method: string, path: string, body: unknown, sig: z.output<typeof signature>): SignedRequest {
  return {
    method,
    path: `${API_BASE}${path}`,
    rawBody: body === undefined ? '' : JSON.stringify(body),
    stamp: sig.stamp?.trim() || null,
    requestId: sig.requestId?.trim() || null,
  };
}

export const listCredentials = defineCommand({
  name: 'wallet.credentials.list',
  input: z.object({}),
  actors: customer,
  idempotency: 'none',
  run: (actor) => {
    const a = holder(actor);
    return credentials.list(a.platformId, a.accountId);
  },
});

/** Adds the passkey the browser created over the registration challenge this browser was given. */
export const addPasskey = defineCommand({
  name: 'wallet.credentials.add-passkey',
  input: z.object({
    nickname: z.string(),
    attestation: z.record(z.string(), z.unknown()),
    challenge: z.string().min(1, 'ask for passkey options first'),
    signature,
  }),
  actors: customer,
  idempotency: 'none',
  run: async (actor, b) => {
    const a = holder(actor);
    const request = {
      type: 'PASSKEY',
      accountId: a.accountId,
      nickname: b.nickname,
      challenge: b.challenge,
      attestation: b.attestation,
    };
    const body = parseBodyOrThrow(credentialCreate, request);
    await requireFreshSignIn(a);
    return credentials.add(a.platformId, body, signedCall('POST', '/auth/credentials', request, b.signature));
  },
});

/** Revokes one of this wallet's credentials (signed by a session of another credential, as the API requires). */
export const removeCredential = defineCommand({
  name: 'wallet.credentials.remove',
  input: z.object({ credentialId: z.string().max(100), signature }),
  actors: customer,
  idempotency: 'none',
  run: async (actor, b) => {
    const a = holder(actor);
    const missing = () => new DomainError('REFERENCE_NOT_FOUND', `Credential ${b.credentialId} not found`);
    if (!isId('AuthMethod', b.credentialId)) throw missing();
    const c = await findCredential(a.platformId, b.credentialId, db());
    if (c?.accountId !== a.accountId) throw missing();
    await requireFreshSignIn(a);
    const path = `/auth/credentials/${b.credentialId}`;
    return credentials.revoke(a.platformId, b.credentialId, signedCall('DELETE', path, undefined, b.signature));
  },
});

/**
 * The recovery phrase and changes to how the wallet signs in need a fresh proof: a session opened
 * (by passkey or code) within the last five minutes, not merely one still open.
 */
export const FRESH_SECONDS = 5 * 60;

/** How many seconds this session's sign-in stays fresh (0 once it is not). */
async function freshSecondsLeft(a: ReturnType<typeof holder>): Promise<number> {
  const own = (await sessions.list(a.platformId, a.accountId)).data.find((x) => x.id === a.authSessionId);
  const age = own ? (now().getTime() - own.createdAt.getTime()) / 1000 : Infinity;
  return Math.max(0, Math.floor(FRESH_SECONDS - age));
}

export async function requireFreshSignIn(a: ReturnType<typeof holder>) {
  if ((await freshSecondsLeft(a)) <= 0)
    throw new DomainError('FORBIDDEN', 'Confirm it is you: sign in again with your passkey or a code, then retry', {
      reason: 'REAUTHENTICATION_REQUIRED',
      freshForSeconds: FRESH_SECONDS,
    });
}

/**
 * Refuses unless the sign-in is fresh: asked before a passkey is created (the registration
 * options), so a stale session is stopped before the authenticator stores a passkey the wallet
 * would then refuse to add.
 */
export const confirmFreshSignIn = defineCommand({
  name: 'wallet.sessions.confirm-fresh',
  input: z.object({}),
  actors: customer,
  idempotency: 'none',
  run: async (actor) => {
    await requireFreshSignIn(holder(actor));
    return { fresh: true };
  },
});

/**
 * How long this session's sign-in stays fresh, on the platform's clock: the page asks the holder
 * to confirm it's them before an action the server would refuse, rather than after.
 */
export const signInFreshness = defineCommand({
  name: 'wallet.sessions.freshness',
  input: z.object({}),
  actors: customer,
  idempotency: 'none',
  run: async (actor) => ({ freshSecondsLeft: await freshSecondsLeft(holder(actor)) }),
});

/** The wallet's open sessions (the devices signed in), this browser's marked. */
export const listSessions = defineCommand({
  name: 'wallet.sessions.list',
  input: z.object({}),
  actors: customer,
  idempotency: 'none',
  run: async (actor) => {
    const a = holder(actor);
    const { data } = await sessions.list(a.platformId, a.accountId);
    return { data: data.map((x) => ({ ...x, current: x.id === a.authSessionId })) };
  },
});

/**
 * Ends another open session of this wallet (a device signed in elsewhere), signed by this one,
 * after a fresh proof as for any change to how the wallet signs in.
 */
export const revokeOtherSession = defineCommand({
  name: 'wallet.sessions.revoke-other',
  input: z.object({ sessionId: z.string().max(100), signature }),
  actors: customer,
  idempotency: 'none',
  run: async (actor, b) => {
    const a = holder(actor);
    const own = (await sessions.list(a.platformId, a.accountId)).data.some((x) => x.id === b.sessionId);
    if (!own) throw new DomainError('REFERENCE_NOT_FOUND', `Session ${b.sessionId} not found`);
    await requireFreshSignIn(a);
    const path = `/auth/sessions/${b.sessionId}`;
    return sessions.revoke(a.platformId, b.sessionId, signedCall('DELETE', path, undefined, b.signature));
  },
});

/** Revokes the wallet session this browser signed in with (null once revoked). */
export const endSession = defineCommand({
  name: 'wallet.sessions.revoke',
  input: z.object({ signature }),
  actors: customer,
  idempotency: 'none',
  run: (actor, b) => {
    const a = holder(actor);
    const path = `/auth/sessions/${a.authSessionId}`;
    return sessions.revoke(a.platformId, a.authSessionId, signedCall('DELETE', path, undefined, b.signature));
  },
});

/** The wallet's recovery phrase sealed (HPKE) to a key the browser just made. */
export const exportWallet = defineCommand({
  name: 'wallet.export',
  input: exportRequest.extend({ signature }),
  actors: customer,
  idempotency: 'none',
  run: async (actor, b) => {
    const a = holder(actor);
    await requireFreshSignIn(a);
    const request = { clientPublicKey: b.clientPublicKey };
    const path = `/internal-accounts/${a.accountId}/export`;
    return wallet.exportWallet(
      a.platformId,
      a.accountId,
      b.clientPublicKey,
      signedCall('POST', path, request, b.signature),
    );
  },
});
