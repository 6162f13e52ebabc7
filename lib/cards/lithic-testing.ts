import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { POST as asaRoute } from '@/app/cards/lithic/asa/route';
import { POST as eventsRoute } from '@/app/cards/lithic/events/route';
import { db } from '@/lib/core/db';
import { eventsOf } from '@/lib/events/outbox';
import * as ledger from '@/lib/ledger/service';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { fund, type Holder } from '@/tests/support/money';
import { switchMode } from '@/tests/support/mode';
import { lithicAsa, lithicAsaFromEnv, lithicSignature, secretBytes } from './lithic';
import { activeCard, cardholder, cardWebhooks } from './testing';

// Lithic as the tests play it: its ASA authorization requests and its card_transaction.updated
// webhooks, shaped and signed as Lithic documents them, posted to Corridor's real route handlers.
export const ASA_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
export const EVENTS_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
export const LITHIC_ENV = { CORRIDOR_LITHIC_ASA_SECRET: ASA_SECRET, CORRIDOR_LITHIC_EVENTS_SECRET: EVENTS_SECRET };

type Route = (req: Request) => Promise<Response>;

export async function signedPost(
  route: Route,
  path: string,
  body: unknown,
  o: { secret: string; id?: string; timestamp?: number },
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const id = o.id ?? `msg_${randomUUID()}`;
  const ts = String(o.timestamp ?? Math.floor(Date.now() / 1000));
  const res = await route(
    new Request(`http://corridor.test${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': ts,
        'webhook-signature': lithicSignature(secretBytes(o.secret), id, ts, text),
      },
      body: text,
    }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Lithic's ASA approves `amount` on the card: the transaction token Corridor holds it under. */
export async function approved(cardToken: string, amount: number): Promise<string> {
  const token = randomUUID();
  const res = await signedPost(
    asaRoute,
    '/cards/lithic/asa',
    {
      token,
      card_token: cardToken,
      status: 'AUTHORIZATION',
      amount,
      cardholder_currency: 'USD',
      merchant: { descriptor: 'LITHIC TEST SHOP', mcc: '5814', country: 'USA' },
    },
    { secret: ASA_SECRET },
  );
  expect(res.body).toEqual({ result: 'APPROVED', token });
  return token;
}

export interface EventSpec {
  type: string;
  amount?: number;
  result?: string;
  token?: string;
}

/** A Transaction object as card_transaction.updated carries it: every event so far. */
export function transactionBody(token: string, cardToken: string, events: EventSpec[], authorized = 0) {
  return {
    token,
    card_token: cardToken,
    status: 'PENDING',
    result: 'APPROVED',
    amount: authorized,
    authorization_amount: authorized,
    merchant: { descriptor: 'LITHIC TEST SHOP', mcc: '5814', country: 'USA' },
    created: new Date().toISOString(),
    events: [{ type: 'AUTHORIZATION', amount: authorized }, ...events].map((e, i) => ({
      token: e.token ?? `${token}-event-${i}`,
      type: e.type,
      amount: e.amount ?? 0,
      amounts: { cardholder: { amount: e.amount ?? 0, currency: 'USD', conversion_rate: '1.000000' } },
      created: new Date().toISOString(),
      result: e.result ?? 'APPROVED',
      detailed_results: [e.result ?? 'APPROVED'],
    })),
  };
}

export const postEvents = (body: unknown, o: { secret?: string; id?: string; timestamp?: number } = {}) =>
  signedPost(eventsRoute, '/cards/lithic/events', body, { secret: EVENTS_SECRET, ...o });

/** The funding account's buckets and the card network's balance: what the events move. */
export async function money(platformId: string, accountId: string) {
  const b = (await ledger.balances([accountId], db())).get(accountId)!;
  const network = await db().ledgerAccount.findUnique({
    where: { id: ledger.systemAccount(platformId, 'WORLD:CARD', 'USD') },
  });
  return { available: b.available, held: b.held, network: network?.balance ?? 0n };
}

export const holdOf = (token: string) =>
  db().cardTransaction.findFirstOrThrow({ where: { issuerTransactionToken: token } });

/** The CARD_TRANSACTION webhook types recorded for one card transaction, in order. */
export async function webhookTypes(platformId: string, cardTransactionId: string) {
  return (await eventsOf(platformId))
    .filter((e) => e.type.startsWith('CARD_TRANSACTION.') && e.body.data.id === cardTransactionId)
    .map((e) => e.type);
}

/** The wallet after `amount` left it for the network (a clearing, or a reversed return). */
export const paidOut = (before: { available: bigint; held: bigint; network: bigint }, amount: bigint) => ({
  available: before.available - amount,
  held: before.held,
  network: before.network + amount,
});

/**
 * A funded cardholder's active card (issued in sandbox: issuing has no production adapter yet),
 * then a production instance with the Lithic program connected, ASA and events, for the file.
 */
export function lithicProgram(name: string) {
  const s = {} as { p: TestPlatform; h: Holder; cardToken: string };
  beforeAll(async () => {
    s.p = await newPlatform();
    s.h = await cardholder(s.p, name);
    await fund(s.p, s.h.accounts.USD, 100_000);
    const card = await activeCard(s.p, s.h);
    s.cardToken = (await db().card.findUniqueOrThrow({ where: { id: card.id } })).processorRef!;
    switchMode('production');
    lithicAsa.set(lithicAsaFromEnv(LITHIC_ENV));
  });
  afterAll(() => {
    lithicAsa.set(null);
    switchMode('sandbox');
  });
  afterEach(async () => {
    await expectLedgerBalanced(s.p.platformId);
    await cardWebhooks(s.p.platformId);
  });
  return { s, wallet: () => money(s.p.platformId, s.h.accounts.USD) };
}
