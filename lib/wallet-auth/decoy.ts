import { createHmac } from 'node:crypto';
import { bytesToBase64url } from '../core/crypto/encoding';
import { generateKeyPair } from '../core/crypto/p256';
import { tokenKey } from '../core/crypto/vault';
import type { AuthMethodRow } from './repository';

// Decoy credentials: what a sign-in by email stands on when the email has no wallet (or, for a
// passkey sign-in, no passkey). The sign-in must answer such an email exactly as it answers a
// customer's — same status, same body shape, the same work and the same throttle — or it tells
// anyone who asks who is a customer (issue 23, finding 8). So the login runs its ordinary code
// (lib/wallet-auth/login.ts) on a credential that exists only in memory: an OTP code is issued,
// throttled and checked as for a real credential but never sent; a passkey challenge is issued
// for a key no authenticator holds. Nothing it leads to can open a session.
//
// A decoy is derived from the email under a key of the master key, so asking twice names the
// same ids (as a real credential would), and its ids have the real ones' formats.
const derive = (platformId: string, email: string, label: string) =>
  createHmac('sha256', tokenKey('wallet-sign-in-decoy'))
    .update(`${label}\n${platformId}\n${email.trim().toLowerCase()}`)
    .digest();

function uuid(bytes: Buffer): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = (b[6] & 0x0f) | 0x40; // version 4, as randomUUID() makes them
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** COSE_Key (EC2, P-256, ES256) of a public key: how passkey public keys are stored. */
function coseKey(point: Uint8Array): string {
  const x = point.subarray(1, 33);
  const y = point.subarray(33, 65);
  const cbor = [0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20, ...x, 0x22, 0x58, 0x20, ...y];
  return bytesToBase64url(Uint8Array.from(cbor));
}

export interface Decoy {
  credential: AuthMethodRow;
  customerId: string;
}

/** The decoy credential of `type` for an email on a platform. */
export function decoyCredential(platformId: string, email: string, type: 'EMAIL_OTP' | 'PASSKEY'): Decoy {
  const id = (label: string) => uuid(derive(platformId, email, label));
  // A passkey key that no authenticator holds (its private half is never used).
  const seed = Buffer.concat([derive(platformId, email, 'passkey-key:1'), derive(platformId, email, 'passkey-key:2')]);
  const key = generateKeyPair(Uint8Array.from(seed.subarray(0, 48)));
  const epoch = new Date(0);
  const credential: AuthMethodRow = {
    id: `AuthMethod:${id(`credential:${type}`)}`,
    platformId,
    accountId: `InternalAccount:${id('account')}`,
    type,
    nickname: null,
    email: type === 'EMAIL_OTP' ? email.trim() : null,
    phoneNumber: null,
    createdAt: epoch,
    updatedAt: epoch,
    revokedAt: null,
    credentialId: type === 'PASSKEY' ? bytesToBase64url(derive(platformId, email, 'webauthn-id')) : null,
    credentialPublicKey: type === 'PASSKEY' ? coseKey(key.publicKey.uncompressed) : null,
    signCount: type === 'PASSKEY' ? 0n : null,
    transports: [],
    registrationChallengeHash: null,
    oidcIssuer: null,
    oidcAudience: null,
    oidcSubject: null,
  };
  key.secretKey.fill(0);
  return { credential, customerId: `Customer:${id('customer')}` };
}

/**
 * The passkeys of a decoy wallet, for a passkey sign-in by email (which lists every passkey of
 * the wallet): the first is decoyCredential's. How many, the email decides — mostly one, now and
 * then two to four, as wallets have them — so that the length of the list does not tell a decoy
 * from a wallet with several passkeys. A wallet lists at most MAX_LISTED_PASSKEYS of its own
 * (lib/wallet-web/sign-in-commands.ts), so one with more does not stand out either.
 */
/** The most passkeys a sign-in by email lists, a wallet's or a decoy's. */
export const MAX_LISTED_PASSKEYS = 4;

export function decoyPasskeys(platformId: string, email: string): { credentials: AuthMethodRow[]; customerId: string } {
  const first = decoyCredential(platformId, email, 'PASSKEY');
  const pick = derive(platformId, email, 'passkey-count')[0];
  const count = pick < 160 ? 1 : pick < 224 ? 2 : pick < 248 ? 3 : MAX_LISTED_PASSKEYS;
  const credentials = [first.credential];
  for (let n = 2; n <= count; n++)
    credentials.push({
      ...first.credential,
      id: `AuthMethod:${uuid(derive(platformId, email, `credential:PASSKEY:${n}`))}`,
      credentialId: bytesToBase64url(derive(platformId, email, `webauthn-id:${n}`)),
    });
  return { credentials, customerId: first.customerId };
}
