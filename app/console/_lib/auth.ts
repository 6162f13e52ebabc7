import 'server-only';
import NextAuth, { CredentialsSignin } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { decode } from 'next-auth/jwt';
import { cookies } from 'next/headers';
import { cache } from 'react';
import { tokenKey } from '@/lib/core/crypto/vault';
import { DomainError } from '@/lib/core/errors';
import { secureCookies } from '@/lib/core/mode';
import { clientAddress } from '@/lib/http/client-address';
import * as staff from '@/lib/staff/service';
import type { StaffActor } from '@/lib/staff/roles';

// Staff sign-in through next-auth (Auth.js): the credentials provider checks the email and
// password with lib/staff (slow hash, attempts limited per address and account before any check,
// lib/staff/sign-in-limits.ts) and opens a StaffSession; the browser
// gets an encrypted JWT naming that session in an HttpOnly, SameSite=Strict cookie (Secure and
// __Host- prefixed outside localhost). Every page and action resolves the cookie back to the
// session row, so signing out, disabling a user or an expired session takes effect at once.
export const sessionCookieName = () => (secureCookies() ? '__Host-corridor_staff' : 'corridor_staff');
// The JWT's key derives from the service master key: sessions survive restarts and work on
// every server process sharing CORRIDOR_SECRET_KEY.
const secret = () => tokenKey('staff-sessions').toString('base64url');

/** A sign-in limit is spent: the password was not checked; the form says when to try again. */
export class Throttled extends CredentialsSignin {
  code = 'throttled';
  constructor(readonly retryAfterSeconds: number) {
    super();
  }
}

const strict = (name: string) => ({
  name,
  options: { httpOnly: true, sameSite: 'strict' as const, path: '/', secure: secureCookies() },
});

/** The password was right and the account has a second factor: the form asks for its code next. */
export class SecondFactor extends CredentialsSignin {
  code = 'second_factor';
  constructor(readonly challengeId: string) {
    super();
  }
}

/** The code of a second step was wrong, replayed, or its challenge expired. */
export class WrongCode extends CredentialsSignin {
  code = 'wrong_code';
}

const field = (v: unknown, max: number) => (typeof v === 'string' && v.length <= max ? v : '');

/** Either step of a sign-in: email and password, or a challenge with its second-factor code. */
async function authorizeStep(credentials: Partial<Record<string, unknown>>, address: string) {
  const challenge = field(credentials.challenge, 100);
  const code = field(credentials.code, 40);
  if (challenge && code) {
    try {
      return await staff.completeSignIn(challenge, code, address);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'UNAUTHORIZED') throw new WrongCode();
      throw err;
    }
  }
  const email = field(credentials.email, 254);
  const password = field(credentials.password, 200);
  if (!email || !password) return null;
  try {
    return await staff.signIn(email, password, address);
  } catch (err) {
    if (err instanceof staff.SecondFactorRequired) throw new SecondFactor(err.challengeId);
    throw err;
  }
}

export const { signIn, signOut } = NextAuth(() => ({
  secret: secret(),
  trustHost: true,
  basePath: '/console/auth',
  session: { strategy: 'jwt', maxAge: staff.SESSION_HOURS * 3600 },
  pages: { signIn: '/console/sign-in', error: '/console/sign-in' },
  cookies: {
    sessionToken: strict(sessionCookieName()),
    callbackUrl: strict(secureCookies() ? '__Secure-corridor_staff_callback' : 'corridor_staff_callback'),
    csrfToken: strict(secureCookies() ? '__Host-corridor_staff_csrf' : 'corridor_staff_csrf'),
  },
  providers: [
    Credentials({
      credentials: {
        email: { label: 'Email' },
        password: { label: 'Password', type: 'password' },
        challenge: {},
        code: { label: 'Code' },
      },
      // `request` carries the headers of the request that called signIn (next-auth copies them),
      // the client's address among them (scripts/server.mjs, CORRIDOR_TRUSTED_PROXIES).
      async authorize(credentials, request) {
        try {
          const opened = await authorizeStep(credentials, clientAddress(request.headers));
          return opened && { id: opened.user.id, email: opened.user.email, sid: opened.sessionId };
        } catch (err) {
          if (err instanceof DomainError && err.code === 'RATE_LIMITED')
            throw new Throttled(Number(err.details?.retryAfterSeconds) || 1);
          if (err instanceof DomainError && err.code === 'UNAUTHORIZED') return null;
          throw err;
        }
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user && 'sid' in user) token.sid = user.sid;
      return token;
    },
  },
  events: {
    async signOut(message) {
      const sid = 'token' in message ? message.token?.sid : undefined;
      if (typeof sid === 'string') await staff.signOut(sid);
    },
  },
}));

/** The staff session's id the request's cookie carries, if its JWT is genuine and unexpired. */
export async function sessionIdOfRequest(): Promise<string | null> {
  const name = sessionCookieName();
  const token = (await cookies()).get(name)?.value;
  if (!token) return null;
  try {
    const payload = await decode({ token, secret: secret(), salt: name });
    return typeof payload?.sid === 'string' ? payload.sid : null;
  } catch {
    return null;
  }
}

/** The signed-in staff member of this request (null when signed out), read once per request. */
export const currentStaff = cache(async (): Promise<StaffActor | null> => {
  const sid = await sessionIdOfRequest();
  return sid ? staff.actorOf(sid) : null;
});
