import 'server-only';
import type { z } from 'zod';
import { cookies } from 'next/headers';
import { unstable_rethrow } from 'next/navigation';
import { DomainError } from '@/lib/core/errors';
import { parseJson, stringifyJson } from '@/lib/core/json';
import { ERROR_STATUS, errorBody } from '@/lib/http/errors';
import { secureCookies } from '@/lib/core/mode';
import { log } from '@/lib/core/log';
import { runCommand, runCommandKeyed, type Command } from '@/lib/core/command';
import { errorAnswer, toDomainError } from '@/lib/http/endpoint';
import { COOKIE, customerActor, resolve, walletActor, type WebSession } from '@/lib/wallet-web/service';

// What every wallet route handler shares: the CSRF check, reading the signed-in browser's
// session from its cookie, running commands (lib/wallet-web/commands.ts) as the signed-in
// customer, and answering JSON. The commands validate the input; the routes only read it.
export const cookieOptions = (maxAgeSeconds: number) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: secureCookies(),
  path: '/wallet',
  maxAge: maxAgeSeconds,
});

export function json(status: number, body: unknown): Response {
  return new Response(stringifyJson(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

export const problem = (status: number, code: string, message: string, details?: Record<string, unknown>) =>
  json(status, { status, code, message, ...(details ? { details } : {}) });

/** A domain error as the API answers it: the spec's body, with its status. */
export const domainProblem = (err: DomainError) => json(ERROR_STATUS[err.code], errorBody(err));

/**
 * Every wallet route handler goes through this: whatever fails inside it is answered as JSON in
 * the spec's error body (a domain error with its status; anything else 500 INTERNAL_ERROR,
 * logged, nothing leaked), never as Next.js's bare 500 page.
 */
export function walletRoute<A extends unknown[]>(
  handler: (...args: A) => Promise<Response>,
): (...args: A) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (err) {
      // Next.js's own control flow (dynamic rendering bail-outs) must reach Next.js.
      unstable_rethrow(err);
      if (err instanceof DomainError) return domainProblem(err);
      const req = args[0] instanceof Request ? args[0] : null;
      log().error({ method: req?.method, err }, 'wallet request failed with an unexpected error');
      return problem(500, 'INTERNAL_ERROR', 'Internal error; the request was not completed');
    }
  };
}

/**
 * A state-changing request must come from a page of this origin: the browser's Origin header
 * names the page's origin and must match the host the request was sent to; and it must be JSON,
 * which a cross-site form cannot send without a CORS preflight this server never grants. (The
 * session cookie is SameSite=Strict as well.)
 */
export function refuseCrossSite(req: Request): Response | null {
  if (req.method === 'GET' || req.method === 'HEAD') return null;
  const origin = req.headers.get('origin');
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  let sameOrigin = false;
  try {
    sameOrigin = origin !== null && host !== null && new URL(origin).host === host;
  } catch {
    sameOrigin = false;
  }
  if (!sameOrigin) return problem(403, 'FORBIDDEN', 'Cross-site request refused');
  const type = req.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/json'))
    return problem(415, 'INVALID_INPUT', 'Send JSON (Content-Type: application/json)');
  return null;
}

/** The session of the signed-in browser, or null (no cookie, or its wallet session ended). */
export async function webSession(): Promise<WebSession | null> {
  return resolve((await cookies()).get(COOKIE)?.value);
}

// The reason tells the page its session is gone (back to sign-in), unlike a refused sign-in's 401.
export const signedOut = () =>
  problem(401, 'UNAUTHORIZED', 'Not signed in (or the wallet session ended)', { reason: 'NO_SESSION' });

/** Reads a JSON body (at most 64 KiB) as text and value; null when it is not a JSON object. */
export async function body(req: Request): Promise<{ text: string; value: Record<string, unknown> } | null> {
  const text = await req.text();
  if (text.length > 65536) return null;
  try {
    const value = parseJson(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? { text, value: value as Record<string, unknown> }
      : null;
  } catch {
    return null;
  }
}

export const signatureOf = (req: Request) => ({
  stamp: req.headers.get('service-wallet-signature'),
  requestId: req.headers.get('request-id'),
});

/**
 * Runs `cmd` as the signed-in customer with `input` as the browser sent it (the command's schema
 * validates it); its refusals reach walletRoute as domain errors.
 */
export async function asHolder<R>(s: WebSession, cmd: Command<z.ZodType, R>, input: unknown = {}): Promise<R> {
  return runCommand(cmd, await customerActor(s), input);
}

/**
 * Runs `cmd` as the signed-in customer under the browser's Idempotency-Key (a retry after a lost
 * answer replays the first one, lib/core/keyed.ts), answering the result as JSON with `status`.
 */
export async function asHolderKeyed<R>(
  req: Request,
  s: WebSession,
  cmd: Command<z.ZodType, R>,
  input: unknown,
  status = 200,
): Promise<Response> {
  const out = await runCommandKeyed(
    cmd,
    await customerActor(s),
    input,
    { key: req.headers.get('idempotency-key') },
    {
      answer: (result) => ({ status, text: stringifyJson(result) }),
      error: (err) => errorAnswer(toDomainError(err, req)),
    },
  );
  return new Response(out.text, {
    status: out.status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

/** Runs a sign-in command as the wallet pages' actor on `platformId` (there is no customer yet). */
export async function asPages<R>(platformId: string, cmd: Command<z.ZodType, R>, input: unknown): Promise<R> {
  return runCommand(cmd, await walletActor(platformId), input);
}
