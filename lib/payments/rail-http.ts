import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { postSigned } from '../webhooks/transport';
import type { RailAdapter, RailEvent, RailEventStatus, RailInstruction, RailSubmission } from './rail';

// The bring-your-own-rail adapter (docs/rails.md): every instruction is POSTed as JSON to the
// operator's endpoint (CORRIDOR_RAIL_URL), signed like Corridor's webhooks — ECDSA P-256 over
// SHA-256 of the exact body bytes, base64 DER in X-Grid-Signature — with Corridor's rail key
// (CORRIDOR_RAIL_SIGNING_KEY). The operator answers whether it took the instruction, and later
// reports what became of it on /rails/callbacks, signed the same way with its own key, which
// Corridor checks with CORRIDOR_RAIL_CALLBACK_PUBLIC_KEY.
export const RAIL_SIGNATURE_HEADER = 'X-Grid-Signature';
export const RAIL_TIMEOUT_MS = 10_000;

export interface HttpRailConfig {
  url: string;
  signingKey: KeyObject;
  callbackKey: KeyObject;
  callbackUrl: string | null;
  timeoutMs: number;
}

/** A PEM from the environment, where its line breaks may have been written as "\n". */
const pem = (raw: string) => raw.replace(/\\n/g, '\n').trim();

/**
 * The HTTP rail's configuration from the environment, or null when CORRIDOR_RAIL_URL is unset.
 * Throws (start-up refuses) when the URL is set without both keys: a rail nobody can authenticate
 * must not be half-connected.
 */
export function httpRailConfig(env: Record<string, string | undefined>): HttpRailConfig | null {
  const url = env.CORRIDOR_RAIL_URL?.trim();
  if (!url) return null;
  const signing = env.CORRIDOR_RAIL_SIGNING_KEY;
  const callback = env.CORRIDOR_RAIL_CALLBACK_PUBLIC_KEY;
  if (!signing || !callback)
    throw new Error(
      'CORRIDOR_RAIL_URL is set: CORRIDOR_RAIL_SIGNING_KEY (PEM private key) and CORRIDOR_RAIL_CALLBACK_PUBLIC_KEY ' +
        '(PEM public key) must be set too (docs/rails.md)',
    );
  const base = env.CORRIDOR_PUBLIC_URL?.replace(/\/+$/, '');
  return {
    url,
    signingKey: createPrivateKey(pem(signing)),
    callbackKey: createPublicKey(pem(callback)),
    callbackUrl: base ? `${base}/rails/callbacks` : null,
    timeoutMs: Number(env.CORRIDOR_RAIL_TIMEOUT_MS) > 0 ? Number(env.CORRIDOR_RAIL_TIMEOUT_MS) : RAIL_TIMEOUT_MS,
  };
}

export const signRailBody = (body: string, key: KeyObject) =>
  sign('sha256', Buffer.from(body, 'utf8'), { key, dsaEncoding: 'der' }).toString('base64');

export function verifyRailBody(body: string, signature: string | null, key: KeyObject): boolean {
  if (!signature) return false;
  try {
    return verify('sha256', Buffer.from(body, 'utf8'), { key, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** The JSON body of an instruction as the operator's endpoint receives it (docs/rails.md). */
export function instructionBody(i: RailInstruction, callbackUrl: string | null, sentAt: Date): string {
  return JSON.stringify({
    type: i.kind,
    reference: i.reference,
    ...(i.originalReference ? { originalReference: i.originalReference } : {}),
    platformId: i.platformId,
    amount: i.amount,
    currency: i.currency,
    rail: i.rail,
    account: i.account,
    description: i.description,
    callbackUrl,
    sentAt: sentAt.toISOString(),
  });
}

function parse(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : undefined);

/** What the endpoint's answer means (docs/rails.md, "Answering an instruction"). */
export function submissionOf(result: { status?: number; error?: string; body: string }): RailSubmission {
  if (result.status === undefined) return { outcome: 'RETRY', reason: result.error ?? 'no answer' };
  const body = parse(result.body);
  const status = result.status;
  if (status >= 200 && status < 300) {
    if (body.status === 'REFUSED') return { outcome: 'REFUSED', reason: str(body.reason) ?? 'refused' };
    if (body.status === 'RETRY')
      return {
        outcome: 'RETRY',
        reason: str(body.reason) ?? 'the rail asked to retry',
        afterSeconds: typeof body.retryAfterSeconds === 'number' ? body.retryAfterSeconds : undefined,
      };
    return { outcome: 'ACCEPTED', providerReference: str(body.providerReference) };
  }
  // Already taken under this reference: the first submission stands.
  if (status === 409) return { outcome: 'ACCEPTED', providerReference: str(body.providerReference) };
  if (status === 400 || status === 422)
    return { outcome: 'REFUSED', reason: str(body.reason) ?? `the rail refused it (HTTP ${status})` };
  return { outcome: 'RETRY', reason: `HTTP ${status}` };
}

export function httpRail(
  config: HttpRailConfig,
  wallNow: () => Date = () => new Date(),
): RailAdapter & {
  config: HttpRailConfig;
} {
  return {
    config,
    describe: () => ({
      party: 'payment rail',
      adapter: 'http (bring your own rail)',
      connected: true,
      detail: `instructions to ${new URL(config.url).origin}, callbacks on /rails/callbacks`,
    }),
    verifyCallback: (body, signature) => verifyRailBody(body, signature, config.callbackKey),
    async submit(instruction) {
      const body = instructionBody(instruction, config.callbackUrl, wallNow());
      // The operator's endpoint is the operator's own choice (often on a private network): it is
      // not checked against private addresses as a platform's webhook endpoint is.
      const result = await postSigned(config.url, body, signRailBody(body, config.signingKey), {
        timeoutMs: config.timeoutMs,
        allowPrivate: true,
      });
      return submissionOf(result);
    },
  };
}

export function httpRailFromEnv(env: Record<string, string | undefined>) {
  const config = httpRailConfig(env);
  return config ? httpRail(config) : null;
}

const STATUSES: RailEventStatus[] = ['COMPLETED', 'FAILED', 'RETURNED'];

/** A callback body as a rail event, or why it is not one. */
export function railEventOf(body: string): RailEvent | { error: string } {
  const v = parse(body);
  if (typeof v.reference !== 'string' || !v.reference) return { error: 'reference is required' };
  if (!STATUSES.includes(v.status as RailEventStatus)) return { error: `status must be one of ${STATUSES.join(', ')}` };
  return {
    reference: v.reference,
    status: v.status as RailEventStatus,
    failureReason: str(v.failureReason),
    eventId: str(v.eventId),
  };
}
