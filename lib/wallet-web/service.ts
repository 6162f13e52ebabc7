import { createHash, randomBytes } from 'node:crypto';
import { clockOf, nowFor } from '../core/clock';
import type { Actor } from '../core/context';
import { DomainError } from '../core/errors';
import { sharedCache } from '../core/shared-cache';
import * as platforms from '../platform/repository';
import * as accounts from '../accounts/repository';
import { decoyCredential } from '../wallet-auth/decoy';
import * as walletAuth from '../wallet-auth/repository';
import { seal, unseal } from '../core/crypto/vault';
import * as repo from './repository';
import { db } from '@/lib/core/db';

// The server side of the /wallet pages. It acts as the platform toward the API — as an internal
// actor of this server, not through an API token, so no API call can delete or change what it
// acts as — and it keeps, per signed-in browser, which customer's wallet session that browser
// holds (an httpOnly cookie carries a random token; its SHA-256 is the row id). The pages' route
// handlers forward a request only when it concerns that customer's own wallet.
export const COOKIE = 'corridor_wallet';
export const LOGIN_COOKIE = 'corridor_wallet_login';

export interface WebSession {
  id: string;
  platformId: string;
  customerId: string;
  accountId: string;
  authSessionId: string;
  expiresAt: Date;
  registrationChallenge: string | null;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The platform whose customers the wallet pages serve: CORRIDOR_WALLET_PLATFORM_ID, else the first one. */
export async function walletPlatformId(): Promise<string | null> {
  if (process.env.CORRIDOR_WALLET_PLATFORM_ID) return process.env.CORRIDOR_WALLET_PLATFORM_ID;
  return (await platforms.findFirst())?.id ?? null;
}

/** What the wallet pages' actor is called where an actor is recorded; never an API token's id. */
export const WALLET_PAGES_ACTOR = 'internal:wallet-pages';

// The actor carries the platform's sandbox clock: dropped in every process when the clock moves.
const actors = sharedCache<Actor>('wallet-pages-actors', 5_000, {
  platform: (platformId, _key, a) => a.platformId === platformId,
});

/**
 * The wallet pages' actor on a platform. It carries every permission (the credential operations
 * need MANAGE); what a browser can reach through it is limited by the pages' route handlers,
 * which forward only the signed-in customer's own requests.
 */
export async function walletActor(platformId: string): Promise<Actor> {
  const cached = actors.get(platformId);
  if (cached) return cached;
  const stamp = actors.stamp();
  const platform = await platforms.findById(platformId, db());
  if (!platform)
    throw new DomainError('SERVICE_UNAVAILABLE', `The wallet pages' platform ${platformId} does not exist`);
  const actor: Actor = {
    kind: 'platform',
    platformId,
    tokenId: WALLET_PAGES_ACTOR,
    permissions: ['VIEW', 'TRANSACT', 'MANAGE'],
    ...clockOf(platform),
  };
  actors.set(platformId, actor, stamp);
  return actor;
}

/**
 * The signed-in wallet holder as an actor: the customer and wallet account of their wallet session,
 * on the platform's clock. The wallet routes run every command as this actor.
 */
export async function customerActor(s: WebSession): Promise<Extract<Actor, { kind: 'customer' }>> {
  const { clockOffsetMs, clockFrozenAt } = await walletActor(s.platformId);
  return {
    kind: 'customer',
    platformId: s.platformId,
    customerId: s.customerId,
    accountId: s.accountId,
    authSessionId: s.authSessionId,
    clockOffsetMs,
    clockFrozenAt,
  };
}

export interface WalletOfEmail {
  customerId: string;
  accountId: string;
  emailOtpCredentialId: string;
  /** In the order registered; `usedAt` is the last sign-in with it (or its registration). */
  passkeys: { id: string; credentialId: string; nickname: string; usedAt: Date }[];
}

/** The embedded wallet whose EMAIL_OTP credential delivers to `email`, with its passkeys. */
export async function walletOfEmail(platformId: string, email: string): Promise<WalletOfEmail | null> {
  const [match] = await walletAuth.emailOtpCredentialsWithEmail(platformId, email.trim(), [], db());
  // An email with no wallet is looked up as far as one with a wallet, by the ids of its decoy
  // (lib/wallet-auth/decoy.ts): the time a sign-in takes must not tell the two apart.
  const decoy = decoyCredential(platformId, email, 'EMAIL_OTP').credential;
  const credential = await walletAuth.findCredential(platformId, match?.id ?? decoy.id, db());
  const account = await accounts.findById(platformId, credential?.accountId ?? decoy.accountId, db());
  const active = await walletAuth.activeCredentials(platformId, account?.id ?? decoy.accountId, db());
  if (!credential || !account?.customerId || account.status === 'CLOSED') return null;
  return {
    customerId: account.customerId,
    accountId: account.id,
    emailOtpCredentialId: credential.id,
    passkeys: active
      .filter((c) => c.type === 'PASSKEY' && c.credentialId)
      .map((c) => ({
        id: c.id,
        credentialId: c.credentialId!,
        nickname: c.nickname ?? 'Passkey',
        usedAt: c.updatedAt,
      })),
  };
}

/**
 * Opens a browser session for a wallet session the customer just created. The token is new
 * every time (a token planted in the browser before sign-in is never promoted).
 */
export async function open(s: Omit<WebSession, 'id' | 'registrationChallenge'>): Promise<{ token: string }> {
  const token = randomBytes(32).toString('base64url');
  await repo.insert({ ...s, id: hashOf(token), createdAt: new Date(), revokedAt: null, registrationChallenge: null });
  return { token };
}

/** The session a cookie token names, while it and its wallet session are active (on the platform's clock). */
export async function resolve(token: string | undefined): Promise<WebSession | null> {
  if (!token || token.length > 100) return null;
  const row = await repo.find(hashOf(token));
  if (!row || row.revokedAt) return null;
  const platform = await platforms.findById(row.platformId, db());
  if (!platform) return null;
  const at = nowFor(platform);
  if (row.expiresAt <= at) return null;
  if (!(await walletAuth.findActiveSession(row.platformId, row.authSessionId, at, db()))) return null;
  return {
    id: row.id,
    platformId: row.platformId,
    customerId: row.customerId,
    accountId: row.accountId,
    authSessionId: row.authSessionId,
    expiresAt: row.expiresAt,
    registrationChallenge: row.registrationChallenge,
  };
}

export async function close(id: string): Promise<void> {
  await repo.revoke(id, new Date());
}

/** A fresh WebAuthn registration challenge for this browser (the last one issued is the one accepted). */
export async function newRegistrationChallenge(session: WebSession): Promise<string> {
  const challenge = randomBytes(32).toString('base64url');
  await repo.setRegistrationChallenge(session.id, challenge);
  return challenge;
}

export async function clearRegistrationChallenge(session: WebSession): Promise<void> {
  await repo.setRegistrationChallenge(session.id, null);
}

/** Whether a credential is one of this wallet's (active or not): what a browser may revoke. */
export async function ownsCredential(session: WebSession, credentialId: string): Promise<boolean> {
  const c = await walletAuth.findCredential(session.platformId, credentialId, db());
  return c?.accountId === session.accountId;
}

/**
 * A pending sign-in (the login cookie) sealed with AES-GCM: the browser can neither forge, alter
 * nor read it, so it cannot tell a customer's sign-in from a decoy's (lib/wallet-auth/decoy.ts).
 */
export function sealLoginCookie(text: string): string {
  return seal(text, 'wallet-login-cookie');
}

export function openLoginCookie(value: string): string | null {
  try {
    return Buffer.from(unseal(value, 'wallet-login-cookie')).toString('utf8');
  } catch {
    return null;
  }
}
