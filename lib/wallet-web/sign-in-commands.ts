import { z } from 'zod';
import { defineCommand } from '../core/command';
import { DomainError } from '../core/errors';
import { parseBodyOrThrow } from '../core/validation';
import { API_BASE } from '../core/mode';
import * as login from '../wallet-auth/login';
import { challengeRequest, credentialVerify } from '../wallet-auth/schema';
import type { SignedRequest } from '../wallet-auth/signed-retry';
import * as accounts from '../accounts/repository';
import { decoyPasskeys, MAX_LISTED_PASSKEYS } from '../wallet-auth/decoy';
import * as walletAuth from '../wallet-auth/repository';
import { db } from '../core/db';
import { walletOfEmail } from './service';
import { startDecoy, verifyDecoy } from './sign-in';
import { signature } from './credential-commands';

// Signing in to the wallet pages, before there is a customer actor: run as the wallet pages'
// actor on the platform (lib/wallet-web/service.ts walletActor), which holds MANAGE as the
// credential operations require. An email with no wallet (or no passkey, for a passkey sign-in)
// is answered by a decoy credential (or a decoy's passkeys) exactly as a real one would be
// (lib/wallet-auth/decoy.ts).
const pages = { platform: 'MANAGE' } as const;

const call = (credentialId: string, step: string, rawBody: string, sig: z.output<typeof signature>): SignedRequest => ({
  method: 'POST',
  path: `${API_BASE}/auth/credentials/${credentialId}/${step}`,
  rawBody,
  stamp: sig.stamp?.trim() || null,
  requestId: sig.requestId?.trim() || null,
});

export const startSignIn = defineCommand({
  name: 'wallet.sign-in.start',
  input: z.object({
    email: z.string().trim().min(1).max(254),
    method: z.enum(['EMAIL_OTP', 'PASSKEY']),
    clientPublicKey: z.string().max(1024).optional(),
  }),
  actors: pages,
  idempotency: 'none',
  run: async (actor, b) => {
    const { platformId } = actor;
    const wallet = await walletOfEmail(platformId, b.email);
    if (b.method === 'PASSKEY')
      return { method: 'PASSKEY' as const, email: b.email, ...passkeyStart(platformId, wallet, b) };
    const credentialId = wallet?.emailOtpCredentialId;
    if (wallet && credentialId) {
      const signed = call(credentialId, 'challenge', '', { stamp: null, requestId: null });
      const challenge = await login.challenge(platformId, credentialId, undefined, signed);
      return {
        method: 'EMAIL_OTP' as const,
        challenge: challenge as Record<string, unknown>,
        login: { customerId: wallet.customerId, accountId: wallet.accountId, credentialId },
        decoy: false,
        email: b.email,
      };
    }
    const d = await startDecoy(platformId, b.email);
    return {
      method: 'EMAIL_OTP' as const,
      challenge: d.challenge as Record<string, unknown>,
      login: {
        customerId: d.decoy.customerId,
        accountId: d.decoy.credential.accountId,
        credentialId: d.decoy.credential.id,
      },
      decoy: true,
      email: b.email,
    };
  },
});

/**
 * A passkey sign-in by email offers every passkey of the wallet (allowCredentials lists them all),
 * so the device at hand answers with whichever it holds; the challenge names none of them
 * (login.discoverableChallenge, bound to the browser's new session key) and the assertion must come
 * from one of this wallet's (verifyDiscoverableSignIn's expectedAccountId). An email with no wallet
 * or a wallet with no passkey gets a decoy's list (decoy.ts) and, like a real one, nothing written.
 * The API's own passkey login stays per credential: POST /auth/credentials/{id}/challenge is that
 * credential's challenge, and only that credential verifies it.
 */
function passkeyStart(
  platformId: string,
  wallet: Awaited<ReturnType<typeof walletOfEmail>>,
  b: { email: string; clientPublicKey?: string },
) {
  // Validated as POST .../challenge validates it, for a wallet and a decoy alike.
  const key = parseBodyOrThrow(challengeRequest, { clientPublicKey: b.clientPublicKey ?? '' })?.clientPublicKey ?? '';
  const challenge = login.discoverableChallenge(platformId, key);
  if (wallet?.passkeys.length)
    return {
      challenge,
      allowCredentials: listed(wallet.passkeys).map((pk) => pk.credentialId),
      login: { customerId: wallet.customerId, accountId: wallet.accountId },
      decoy: false,
    };
  const decoy = decoyPasskeys(platformId, b.email);
  return {
    challenge,
    allowCredentials: decoy.credentials.map((c) => c.credentialId!),
    login: { customerId: decoy.customerId, accountId: decoy.credentials[0].accountId },
    decoy: true,
  };
}

/**
 * The passkeys a sign-in by email offers: all of them up to MAX_LISTED_PASSKEYS, else the ones
 * used most recently, in the order registered — a decoy lists no more (lib/wallet-auth/decoy.ts),
 * so a longer list would tell that the email has a wallet. The others still sign in without an
 * email (the discoverable sign-in, which lists nothing).
 */
function listed<P extends { usedAt: Date }>(passkeys: P[]): P[] {
  if (passkeys.length <= MAX_LISTED_PASSKEYS) return passkeys;
  const recent = new Set(
    [...passkeys].sort((a, b) => b.usedAt.getTime() - a.usedAt.getTime()).slice(0, MAX_LISTED_PASSKEYS),
  );
  return passkeys.filter((pk) => recent.has(pk));
}

/** The sign-in in progress, as the sealed login cookie keeps it (app/wallet/_server/login.ts). */
const pendingLogin = z.object({
  customerId: z.string(),
  accountId: z.string(),
  credentialId: z.string(),
  email: z.string(),
  method: z.enum(['EMAIL_OTP', 'PASSKEY']),
  decoy: z.boolean(),
});

/**
 * The proof for the credential of the sign-in in progress: an OTP (a signed retry: first the
 * payload to stamp) or a passkey assertion. Answers the challenge or the wallet session opened;
 * a decoy's sign-in is refused exactly as a wrong proof would be.
 */
export const verifySignIn = defineCommand({
  name: 'wallet.sign-in.verify',
  input: z.object({
    login: pendingLogin,
    proof: credentialVerify,
    /** The proof's exact text: the signed retry binds the body as sent. */
    rawBody: z.string().max(65_536),
    signature,
  }),
  actors: pages,
  idempotency: 'none',
  run: async (actor, b) => {
    const { platformId } = actor;
    if (b.login.decoy) return verifyDecoy({ platformId, ...b.login }, { text: b.rawBody, value: b.proof }, b.signature);
    const signed = call(b.login.credentialId, 'verify', b.rawBody, b.signature);
    const result = await login.verify(platformId, b.login.credentialId, b.proof, signed);
    if ('accountId' in result && result.accountId !== b.login.accountId)
      throw new DomainError('INTERNAL_ERROR', 'The session is for another wallet');
    return result;
  },
});

/** Where the wallet pages verify a discoverable passkey (what its pending request is bound to). */
export const DISCOVERABLE_VERIFY_PATH = '/wallet/api/sign-in/verify';

/**
 * A passkey sign-in with no email typed: a WebAuthn challenge bound to the browser's new session
 * key, for whichever of this site's passkeys the person picks (lib/wallet-auth/login.ts). Nothing
 * is looked up, so nothing can tell who is a customer, and nothing is written: the browser holds
 * the sign-in sealed until a registered passkey answers it.
 */
export const startDiscoverableSignIn = defineCommand({
  name: 'wallet.sign-in.start-discoverable',
  input: z.object({ clientPublicKey: z.string().trim().min(1, 'clientPublicKey is required').max(1024) }),
  actors: pages,
  idempotency: 'none',
  run: async (actor, b) => login.discoverableChallenge(actor.platformId, b.clientPublicKey),
});

/**
 * "Confirm it's you" with a passkey, for a signed-in wallet: a discoverable challenge limited to
 * that wallet's passkeys (every one of them, so the device at hand can answer whichever it holds),
 * which signs in again only as the same wallet. The wallet comes from the browser's session, never
 * from the request, so the list of passkey ids goes only to whoever is already signed in.
 */
export const startConfirmSignIn = defineCommand({
  name: 'wallet.sign-in.start-confirm',
  input: z.object({
    clientPublicKey: z.string().trim().min(1, 'clientPublicKey is required').max(1024),
    accountId: z.string().min(1).max(255),
  }),
  actors: pages,
  idempotency: 'none',
  run: async (actor, b) => {
    const passkeys = (await walletAuth.activeCredentials(actor.platformId, b.accountId, db())).filter(
      (c) => c.type === 'PASSKEY' && c.credentialId,
    );
    if (passkeys.length === 0)
      throw new DomainError('FORBIDDEN', 'This wallet has no passkey: confirm with an email code instead', {
        reason: 'NO_PASSKEY',
      });
    const challenge = login.discoverableChallenge(actor.platformId, b.clientPublicKey);
    return { ...challenge, allowCredentials: passkeys.map((c) => c.credentialId!) };
  },
});

/**
 * The assertion of a discoverable passkey: the wallet it belongs to (an open embedded wallet of a
 * customer, as a sign-in by email requires) gets a session for the browser's key.
 */
export const verifyDiscoverableSignIn = defineCommand({
  name: 'wallet.sign-in.verify-discoverable',
  input: z.object({
    proof: credentialVerify,
    // The sign-in in progress, from the browser's sealed login cookie (never from the body).
    pending: z.object({
      requestId: z.string().min(1).max(255),
      loginRequest: z.string().min(1).max(2000),
      clientPublicKey: z.string().min(1).max(1024),
      expiresAt: z.string().min(1).max(64),
    }),
    // Set for "confirm it's you" and a sign-in by email: the passkey must be one of this wallet's.
    expectedAccountId: z.string().min(1).max(255).optional(),
    // A sign-in by email answered from a decoy (passkeyStart): the email its passkeys derive from.
    decoyEmail: z.string().max(254).optional(),
  }),
  actors: pages,
  idempotency: 'none',
  run: async (actor, b) => {
    const { platformId } = actor;
    let customerId = '';
    const { credential, session } = await login.verifyDiscoverable(
      platformId,
      b.proof,
      b.pending,
      DISCOVERABLE_VERIFY_PATH,
      async (c, tx) => {
        if (b.expectedAccountId && c.accountId !== b.expectedAccountId)
          throw new DomainError('UNAUTHORIZED', 'Passkey assertion failed: this passkey belongs to another wallet', {
            reason: 'Passkey assertion failed: passkey of another wallet',
          });
        const account = await accounts.findById(platformId, c.accountId, tx);
        if (!account?.customerId || account.status === 'CLOSED')
          throw new DomainError(
            'UNAUTHORIZED',
            'Passkey assertion failed: this passkey is not registered with a wallet',
            {
              reason: 'Passkey assertion failed: unknown passkey',
            },
          );
        customerId = account.customerId;
      },
      b.decoyEmail === undefined ? [] : decoyPasskeys(platformId, b.decoyEmail).credentials,
    );
    return { session, customerId, accountId: credential.accountId };
  },
});
