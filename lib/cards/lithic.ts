import { createHmac, timingSafeEqual } from 'node:crypto';
import { port, type AdapterStatus } from '../core/ports';

// The connection to the issuer processor Lithic, as the operator configures it: the secrets its
// two callers sign with — Auth Stream Access (authorization requests, lib/cards/asa.ts) and the
// event subscription that posts card_transaction.updated (clearings, expiries, returns,
// lib/cards/lithic-events.ts) — and how long an authorization decision may take.
//
// Both are signed the way Lithic signs its webhooks (Standard Webhooks): headers webhook-id,
// webhook-timestamp (Unix seconds) and webhook-signature ("v1,<base64>", several separated by
// spaces during a secret rotation), the signature an HMAC-SHA256 of "{id}.{timestamp}.{raw body}"
// under the secret ("whsec_<base64>" — the bytes after the prefix, base64-decoded). A timestamp
// more than five minutes away is refused. The secrets differ: the ASA secret comes from
// GET /v1/auth_stream/secret, an event subscription has its own (GET
// /v1/event_subscriptions/{token}/secret), rotated on its own schedule.
export interface LithicSecrets {
  /** The HMAC secrets accepted (the current one, and the previous one during a rotation). */
  secrets: Buffer[];
}

export interface LithicAsaConfig extends LithicSecrets {
  /** How long a decision may take before it is abandoned and declined (Lithic waits only a few seconds for an answer). */
  deadlineMs: number;
  /** The event subscription's secrets; null while no subscription is configured (nothing clears). */
  events: LithicSecrets | null;
}
export const lithicAsa = port<(LithicAsaConfig & { describe(): AdapterStatus }) | null>('cards.lithic_asa');

const TOLERANCE_SECONDS = 300;
const DEFAULT_DEADLINE_MS = 2_000;

/** A secret as Lithic shows it: "whsec_" and base64, or (without the prefix) base64 as well. */
export function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.trim().replace(/^whsec_/, ''), 'base64');
}

const secretsOf = (raw: string) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(secretBytes);

const EVENTS_DETAIL = {
  on: 'transaction events (clearings, expiries, returns) on /cards/lithic/events',
  off: 'transaction events NOT connected: approved holds never clear, expire or take returns — set CORRIDOR_LITHIC_EVENTS_SECRET (docs/cards.md)',
};

/**
 * The Lithic connection from the environment: none without CORRIDOR_LITHIC_ASA_SECRET. Transaction
 * events are served only beside ASA — they settle the holds its approvals made — and only with
 * their own subscription's secret (CORRIDOR_LITHIC_EVENTS_SECRET).
 */
export function lithicAsaFromEnv(env: Record<string, string | undefined>) {
  const raw = env.CORRIDOR_LITHIC_ASA_SECRET;
  if (!raw) return null;
  const deadline = Number(env.CORRIDOR_LITHIC_ASA_DEADLINE_MS ?? DEFAULT_DEADLINE_MS);
  const eventSecrets = env.CORRIDOR_LITHIC_EVENTS_SECRET ? secretsOf(env.CORRIDOR_LITHIC_EVENTS_SECRET) : [];
  const events = eventSecrets.length ? { secrets: eventSecrets } : null;
  return {
    secrets: secretsOf(raw),
    deadlineMs: Number.isFinite(deadline) && deadline > 0 ? deadline : DEFAULT_DEADLINE_MS,
    events,
    describe: (): AdapterStatus => ({
      party: 'card authorizations',
      adapter: 'Lithic Auth Stream Access',
      connected: true,
      detail: `decisions served on /cards/lithic/asa; ${events ? EVENTS_DETAIL.on : EVENTS_DETAIL.off}`,
    }),
  };
}

/**
 * The summary line when CORRIDOR_LITHIC_ASA_SECRET is unset (the port then holds null: nothing
 * answers Lithic, so no card authorization is approved here).
 */
export const noLithicAsa: AdapterStatus = {
  party: 'card authorizations',
  adapter: 'none',
  connected: false,
  detail: '/cards/lithic/asa answers 404 — set CORRIDOR_LITHIC_ASA_SECRET to answer a Lithic program (docs/cards.md)',
};

/** The signature Lithic sends for a body (what a test, or a replaying tool, computes). */
export function lithicSignature(secret: Buffer, id: string, timestamp: string, body: string): string {
  return `v1,${createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Null when the headers sign `body` under one of the secrets, within the tolerance; else why not. */
export function verifyLithic(
  config: LithicSecrets,
  headers: { id: string | null; timestamp: string | null; signature: string | null },
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): string | null {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return 'webhook-id, webhook-timestamp and webhook-signature are required';
  const ts = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - ts) > TOLERANCE_SECONDS)
    return 'webhook-timestamp is not within five minutes of now';
  const offered = signature
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s));
  for (const secret of config.secrets) {
    const expected = Buffer.from(lithicSignature(secret, id, timestamp, body));
    if (offered.some((o) => o.length === expected.length && timingSafeEqual(o, expected))) return null;
  }
  return 'webhook-signature does not verify';
}
