import { isSafeNumber, parse } from 'lossless-json';
import { stamp, type SessionKey } from './crypto';

// How the wallet pages talk to their server side (/wallet/api): JSON with amounts read exactly
// (integers beyond 2^53 become bigint), errors as ApiError, and the signed-retry pattern — the
// first call answers 202 with a payload, the session key stamps it, the same call goes again.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Json = null,
  ) {
    super(message);
  }
}

const numbers = (value: string) =>
  isSafeNumber(value) ? Number(value) : /^-?\d+$/.test(value) ? BigInt(value) : Number(value);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are checked by the server; pages read known fields
export type Json = any;

export async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; data: Json }> {
  const res = await fetch(`/wallet/api${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    cache: 'no-store',
  });
  const text = await res.text();
  const data = text ? (parse(text, null, numbers) as Json) : null;
  if (res.status >= 400)
    throw new ApiError(res.status, data?.code ?? 'ERROR', data?.message ?? `HTTP ${res.status}`, data?.details ?? null);
  return { status: res.status, data };
}

/** A wallet action under the signed-retry pattern; returns the final answer's body. */
export async function signed(
  method: string,
  path: string,
  body: unknown,
  key: SessionKey,
  extra: Record<string, string> = {},
) {
  const text = JSON.stringify(body ?? {});
  const first = await call(method, path, text, extra);
  if (first.status !== 202) return first.data;
  const retry = await call(method, path, text, {
    ...extra,
    'Service-Wallet-Signature': await stamp(first.data.payloadToSign, key),
    'Request-Id': first.data.requestId,
  });
  return retry.data;
}

/** The server answered that this browser's session is gone (ran out, or signed out elsewhere). */
export const sessionGone = (err: unknown) =>
  err instanceof ApiError && err.status === 401 && err.details?.reason === 'NO_SESSION';

/** The server refused an action until the holder confirms it is them (a sign-in of the last minutes). */
export const needsConfirmation = (err: unknown) =>
  err instanceof ApiError && err.status === 403 && err.details?.reason === 'REAUTHENTICATION_REQUIRED';

/**
 * Before an action that needs a fresh sign-in: asks the server (its clock, which a sandbox may
 * move) whether this session still is, and if not refuses here as the server would, so the page
 * asks the holder to confirm it's them first. The server checks again; this only spares a refusal.
 */
export async function requireFresh(): Promise<void> {
  const me = (await call('GET', '/me')).data;
  if (!me?.signedIn)
    throw new ApiError(401, 'UNAUTHORIZED', 'Not signed in (or the wallet session ended)', { reason: 'NO_SESSION' });
  // A few seconds' margin: the action itself follows this answer.
  if (Number(me.session?.freshSecondsLeft ?? 0) <= 5)
    throw new ApiError(403, 'FORBIDDEN', 'Confirm it is you', { reason: 'REAUTHENTICATION_REQUIRED' });
}
