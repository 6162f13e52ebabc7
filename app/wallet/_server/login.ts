import 'server-only';
import { loginTag, loginTagMatches } from '@/lib/wallet-web/service';

// A sign-in in progress (between the challenge and the verification) lives in a short-lived
// httpOnly cookie: which wallet and which credential it is for, until when, under an HMAC tag so
// the browser can neither forge nor alter it. Nothing is stored for sign-ins never finished.
export const LOGIN_TTL_SECONDS = 300;

export interface PendingLogin {
  platformId: string;
  customerId: string;
  accountId: string;
  credentialId: string;
  expiresAtMs: number;
}

export function sealLogin(login: PendingLogin): string {
  const payload = Buffer.from(JSON.stringify(login)).toString('base64url');
  return `${payload}.${loginTag(payload)}`;
}

export function openLogin(value: string | undefined): PendingLogin | null {
  if (!value || value.length > 2000) return null;
  const [payload, tag] = value.split('.');
  if (!payload || !tag || !loginTagMatches(payload, tag)) return null;
  try {
    const login = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as PendingLogin;
    return login.expiresAtMs > Date.now() ? login : null;
  } catch {
    return null;
  }
}
