import 'server-only';
import type { DiscoverableLogin } from '@/lib/wallet-auth/login';
import { openLoginCookie, sealLoginCookie } from '@/lib/wallet-web/service';

// A sign-in in progress (between the challenge and the verification) lives in a short-lived
// httpOnly cookie: which wallet, credential and email it is for, until when, and whether it stands
// on a decoy (an email with no wallet, lib/wallet-auth/decoy.ts) — sealed, so the browser can
// neither forge, alter nor read it, and of the same length either way. Nothing is stored for
// sign-ins never finished.
export const LOGIN_TTL_SECONDS = 300;

export interface PendingLogin {
  platformId: string;
  customerId: string;
  accountId: string;
  credentialId: string;
  email: string;
  method: 'EMAIL_OTP' | 'PASSKEY';
  decoy: boolean;
  expiresAtMs: number;
  /**
   * A passkey sign-in: its challenge, which names no credential, sealed here rather than stored
   * (lib/wallet-auth/login.ts discoverableChallenge); credentialId is empty. With no email typed
   * the wallet is known only from the assertion, so customerId, accountId and email are empty too;
   * for "confirm it's you" customerId and accountId name the signed-in wallet that must answer, and
   * for a sign-in by email the wallet of the email (or its decoy's ids, with `decoy`).
   */
  discoverable?: DiscoverableLogin;
}

export function sealLogin(login: PendingLogin): string {
  // The flag as a digit: `true` and `false` differ in length, and so would the sealed cookies.
  return sealLoginCookie(JSON.stringify({ ...login, decoy: login.decoy ? 1 : 0 }));
}

export function openLogin(value: string | undefined): PendingLogin | null {
  if (!value || value.length > 2000) return null;
  const text = openLoginCookie(value);
  if (!text) return null;
  try {
    const login = JSON.parse(text) as Omit<PendingLogin, 'decoy'> & { decoy: number };
    return login.expiresAtMs > Date.now() ? { ...login, decoy: login.decoy === 1 } : null;
  } catch {
    return null;
  }
}
