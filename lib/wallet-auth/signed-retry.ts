import { addSeconds, now } from '../core/clock';
import { db, transaction, type Prisma, type Tx } from '../core/db';
import { DomainError } from '../core/errors';
import { canonicalJson, parseJson } from '../core/json';
import { newId } from '../core/ids';
import { activeSessionsWithKey } from './repository';
import { sha256Hex } from '../core/crypto/secrets';
import * as repo from './signed-request-repository';
import { parseStamp, stampSignsPayload, type Stamp } from './stamp';
import { seal, unseal } from '../core/crypto/vault';

// The signed-retry mechanism, the one way every embedded-wallet action is authorized:
//   1. the first call carries no signature: the service records a pending request bound to the
//      exact request (method, path, body) and the accounts whose sessions may sign it, and
//      answers 202 {type?, payloadToSign, requestId, expiresAt};
//   2. the client stamps payloadToSign with a session key it holds;
//   3. the same request comes back with Service-Wallet-Signature (or Grid-Wallet-Signature) and
//      Request-Id before expiresAt; acceptSignedRetry checks it inside the transaction that
//      performs the action and consumes the request id there, so a request id authorizes one
//      action: a rolled-back action leaves it usable, a committed one leaves it spent.
// The 401 codes: WALLET_SIGNATURE_MISSING (Request-Id without a stamp), REQUEST_ID_MISSING (stamp
// without Request-Id), WALLET_SIGNATURE_MALFORMED (stamp unreadable), WALLET_SIGNATURE_BODY_MISMATCH
// (retry differs from the bound request), WALLET_SIGNATURE_INVALID (signature or signing key not
// acceptable), UNAUTHORIZED with details.reason (request id unknown, used or expired).
export const SIGNED_REQUEST_TTL_SECONDS = 300;
/** What a signed request's sealed context is bound to. */
export const contextPurpose = (id: string) => `signed-request:${id}`;
export type CredentialType = 'PASSKEY' | 'OAUTH' | 'EMAIL_OTP' | 'SMS_OTP';

export interface RequestBinding {
  method: string;
  path: string;
  bodyHash: string;
}

/**
 * A request as a signed retry binds it, read at the API edge (lib/http) so that services never
 * see HTTP objects: method, decoded path, the exact body text, and the retry's headers.
 */
export interface SignedRequest {
  method: string;
  path: string;
  rawBody: string;
  /** Service-Wallet-Signature (or the Grid-Wallet-Signature alias), trimmed; null when absent. */
  stamp: string | null;
  /** Request-Id, trimmed; null when absent. */
  requestId: string | null;
}

/**
 * The request as the signature binds it. The body is compared by content (canonical JSON of the
 * raw body, numbers exact), so a client re-serializing the same body still matches while any
 * changed, added or removed field does not.
 */
export function bindRequest(request: SignedRequest): RequestBinding {
  let body: unknown = null;
  if (request.rawBody.trim() !== '') {
    try {
      body = parseJson(request.rawBody);
    } catch {
      body = request.rawBody;
    }
  }
  return { method: request.method.toUpperCase(), path: request.path, bodyHash: sha256Hex(canonicalJson(body)) };
}

const requestHash = (b: RequestBinding) => sha256Hex(`${b.method} ${b.path}\n${b.bodyHash}`);

export interface RetryHeaders {
  stamp: string | null;
  requestId: string | null;
}

/** The signed-retry headers, or null on a first call (neither present). */
export function retryHeaders(request: SignedRequest): RetryHeaders | null {
  const { stamp, requestId } = request;
  return stamp === null && requestId === null ? null : { stamp, requestId };
}

export interface Challenge {
  type?: CredentialType;
  payloadToSign: string;
  requestId: string;
  expiresAt: Date;
}

export interface SignerRule {
  /** Only this key may sign (OTP login: the client's TEK; no session exists yet). */
  boundPublicKey?: string;
  /** Only this session may sign (session refresh). */
  sessionId?: string;
  /** Sessions of this credential may not sign (rule 1: revoking it needs another credential). */
  excludeAuthMethodId?: string;
}

export interface ChallengeSpec {
  platformId: string;
  /** What the request does, e.g. AUTH_CREDENTIAL_CREATE; a retry must be for the same kind. */
  kind: string;
  binding: RequestBinding;
  /** Sessions on these accounts may sign. */
  accountIds: string[];
  /** The activity shown in payloadToSign; its parameters name what is being authorized. */
  activity?: { type: string; parameters: Record<string, unknown> };
  /** A payload of its own instead of the activity JSON (the OTP verification token). */
  payload?: (requestId: string, expiresAt: Date) => string;
  type?: CredentialType;
  signer?: SignerRule;
  /** Non-secret data the retry needs back (e.g. the credential set the challenge bound). */
  context?: Record<string, unknown>;
  /** Secret data the retry needs back, sealed at rest. */
  secret?: Uint8Array;
  ttlSeconds?: number;
}

export async function issueChallenge(tx: Tx, spec: ChallengeSpec): Promise<Challenge> {
  const at = now();
  const id = newId('Request');
  const expiresAt = addSeconds(at, spec.ttlSeconds ?? SIGNED_REQUEST_TTL_SECONDS);
  const payloadToSign = spec.payload
    ? spec.payload(id, expiresAt)
    : canonicalJson({
        organizationId: spec.platformId,
        parameters: spec.activity?.parameters ?? {},
        requestHash: requestHash(spec.binding),
        requestId: id,
        timestampMs: String(at.getTime()),
        type: spec.activity?.type ?? `ACTIVITY_TYPE_${spec.kind}`,
      });
  await repo.insert(
    {
      id,
      platformId: spec.platformId,
      kind: spec.kind,
      accountIds: spec.accountIds,
      method: spec.binding.method,
      path: spec.binding.path,
      bodyHash: spec.binding.bodyHash,
      payloadToSign,
      boundPublicKey: spec.signer?.boundPublicKey ?? null,
      sessionId: spec.signer?.sessionId ?? null,
      excludeAuthMethodId: spec.signer?.excludeAuthMethodId ?? null,
      context: (spec.context ?? {}) as Prisma.InputJsonValue,
      sealedContext: spec.secret ? seal(spec.secret, contextPurpose(id)) : null,
      createdAt: at,
      expiresAt,
    },
    tx,
  );
  return { ...(spec.type ? { type: spec.type } : {}), payloadToSign, requestId: id, expiresAt };
}

export interface AcceptedRetry {
  requestId: string;
  kind: string;
  context: Record<string, unknown>;
  /** The signing session (null when a bound key signed, before any session exists). */
  sessionId: string | null;
  /** The compressed public key that signed. */
  publicKey: string;
  secret(): Uint8Array;
}

const unauthorized = (message: string, reason: string) => new DomainError('UNAUTHORIZED', message, { reason });
const invalid = (reason: string) =>
  new DomainError('WALLET_SIGNATURE_INVALID', `The wallet signature was not accepted: ${reason}`, { reason });

function requireHeaders(headers: RetryHeaders): { stamp: Stamp; requestId: string } {
  if (headers.stamp === null) {
    throw new DomainError(
      'WALLET_SIGNATURE_MISSING',
      'This signed retry needs a Service-Wallet-Signature header (the stamp over payloadToSign) with its Request-Id',
    );
  }
  if (headers.requestId === null) {
    throw new DomainError(
      'REQUEST_ID_MISSING',
      'The signed retry needs the Request-Id header echoing the requestId of the 202 challenge',
    );
  }
  return { stamp: parseStamp(headers.stamp), requestId: headers.requestId };
}

/**
 * Locks a pending request by its Request-Id and checks it is open (known, unused, unexpired,
 * of one of `kinds`). Does not consume it: the caller does, with `consumePendingRequest`, in the
 * transaction of the action.
 */
export async function openPendingRequest(
  tx: Tx,
  platformId: string,
  requestId: string,
  kinds: string[],
): Promise<repo.SignedRequestRow> {
  const pending = await repo.lock(platformId, requestId, tx);
  const at = now();
  if (!pending)
    throw unauthorized(`Request-Id ${requestId} does not match a pending signed request`, 'Unknown Request-Id');
  if (pending.consumedAt)
    throw unauthorized(
      `Request-Id ${requestId} was already used; start again without signature headers`,
      'Request-Id already used',
    );
  if (pending.expiresAt <= at)
    throw unauthorized(
      `Request-Id ${requestId} expired at ${pending.expiresAt.toISOString()}; start again`,
      'Signed request expired',
    );
  if (!kinds.includes(pending.kind)) {
    throw new DomainError('WALLET_SIGNATURE_BODY_MISMATCH', 'The Request-Id was issued for a different operation', {
      reason: 'Different operation',
    });
  }
  return pending;
}

export async function consumePendingRequest(tx: Tx, pending: repo.SignedRequestRow): Promise<void> {
  if (!(await repo.consume(pending.id, now(), tx)))
    throw unauthorized(`Request-Id ${pending.id} was already used`, 'Request-Id already used');
}

/**
 * Records a request answered without having been stored when it was issued (a discoverable passkey
 * sign-in, whose challenge the browser held sealed): written spent, under its id, so a second
 * answer to the same request is refused here.
 */
export async function recordSpentRequest(
  tx: Tx,
  r: { platformId: string; id: string; kind: string; binding: RequestBinding; payloadToSign: string; expiresAt: Date },
): Promise<void> {
  const at = now();
  const written = await repo.insertSpent(
    {
      id: r.id,
      platformId: r.platformId,
      kind: r.kind,
      accountIds: [],
      method: r.binding.method,
      path: r.binding.path,
      bodyHash: r.binding.bodyHash,
      payloadToSign: r.payloadToSign,
      context: {},
      createdAt: at,
      expiresAt: r.expiresAt,
      consumedAt: at,
    },
    tx,
  );
  if (!written) throw unauthorized(`Request-Id ${r.id} was already used`, 'Request-Id already used');
}

export function pendingSecret(pending: repo.SignedRequestRow): Uint8Array {
  if (!pending.sealedContext) throw new Error('signed request has no sealed context');
  return unseal(pending.sealedContext, contextPurpose(pending.id));
}

/**
 * Checks a signed retry and consumes its request id, inside the caller's transaction (the one
 * that performs the action). Throws the 401 that names what is wrong.
 */
export async function acceptSignedRetry(
  tx: Tx,
  opts: { platformId: string; kind: string | string[]; binding: RequestBinding; headers: RetryHeaders },
): Promise<AcceptedRetry> {
  const { stamp, requestId } = requireHeaders(opts.headers);
  const pending = await openPendingRequest(
    tx,
    opts.platformId,
    requestId,
    Array.isArray(opts.kind) ? opts.kind : [opts.kind],
  );
  const b = opts.binding;
  if (pending.method !== b.method || pending.path !== b.path || pending.bodyHash !== b.bodyHash) {
    throw new DomainError(
      'WALLET_SIGNATURE_BODY_MISMATCH',
      'The signed retry differs from the request the challenge was issued for (method, path and body must be the same)',
      {
        reason: pending.method !== b.method || pending.path !== b.path ? 'Different operation' : 'Different body',
      },
    );
  }
  const signer = await acceptableSigner(tx, pending, stamp, now());
  await consumePendingRequest(tx, pending);
  return {
    requestId: pending.id,
    kind: pending.kind,
    context: pending.context as Record<string, unknown>,
    sessionId: signer.sessionId,
    publicKey: signer.publicKey,
    secret: () => pendingSecret(pending),
  };
}

async function acceptableSigner(
  tx: Tx,
  pending: repo.SignedRequestRow,
  stamp: Stamp,
  at: Date,
): Promise<{ sessionId: string | null; publicKey: string }> {
  if (stamp.kind === 'stamp' && !stampSignsPayload(stamp, pending.payloadToSign))
    throw invalid('Signature does not verify over payloadToSign');
  if (pending.boundPublicKey) {
    if (stamp.kind === 'stamp' && stamp.publicKey !== pending.boundPublicKey)
      throw invalid('Signed by a key other than the one bound to this request');
    return { sessionId: null, publicKey: pending.boundPublicKey };
  }
  const candidates = await activeSessionsWithKey(
    pending.platformId,
    pending.accountIds,
    stamp.kind === 'stamp' ? stamp.publicKey : null,
    at,
    tx,
  );
  const eligible = candidates.filter(
    (s) =>
      (!pending.sessionId || s.id === pending.sessionId) &&
      (!pending.excludeAuthMethodId || s.authMethodId !== pending.excludeAuthMethodId),
  );
  if (!eligible.length) {
    if (!candidates.length) throw invalid('The signing key is not an active session of this account');
    if (pending.sessionId) throw invalid('Must be signed by the session being refreshed');
    throw invalid('Must be signed by a session of a different credential than the one being revoked');
  }
  return { sessionId: eligible[0].id, publicKey: eligible[0].publicKey };
}

/**
 * A signed action's two legs in one place: without signature headers, the challenge bound to this
 * exact request (one insert, no transaction to hold); with them, the retry is accepted and `act`
 * runs in the same transaction, so a spent requestId and the action commit together.
 */
export async function signedAction<T>(
  request: SignedRequest,
  spec: Omit<ChallengeSpec, 'binding'>,
  act: (tx: Tx, signed: AcceptedRetry) => Promise<T>,
): Promise<Challenge | T> {
  const binding = bindRequest(request);
  const headers = retryHeaders(request);
  if (!headers) return issueChallenge(db(), { ...spec, binding });
  return transaction(async (tx) =>
    act(tx, await acceptSignedRetry(tx, { platformId: spec.platformId, kind: spec.kind, binding, headers })),
  );
}
