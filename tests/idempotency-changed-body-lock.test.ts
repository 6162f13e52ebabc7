import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newPlatform, type ApiResponse, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { db } from '@/lib/core/db';
import { canonicalJson } from '@/lib/core/json';
import { API_BASE } from '@/lib/core/mode';
import { requestHash } from '@/lib/core/keyed';

// The soak's lock event as a test (PostgreSQL only: the row lock is taken from a second
// connection). Body b claims the key and waits on the source account's locked ledger row, held
// past the transaction timeout; body a is sent under the same key meanwhile, then both are
// retried until final, as impatient clients do. Whatever wins, one effect; the body that made it
// is answered with success only, the other with 400 only — never a final refusal for an effect
// that commits (issue 22's `committed-not-answered`). idempotency-changed-body.test.ts has the
// same rule without a lock, on both databases.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const retryable = (r: ApiResponse) =>
  r.status >= 500 || r.status === 429 || (r.status === 409 && r.headers.get('x-should-retry') === 'true');

let p: TestPlatform;
let h: Holder;
let external: string;
let locker: pg.Client;

/** Sends until the answer is final (at most ~10 s), all answers kept. */
async function untilFinal(send: () => Promise<ApiResponse>, answers: ApiResponse[]): Promise<ApiResponse> {
  for (let i = 0; i < 100; i++) {
    const r = await send();
    answers.push(r);
    if (!retryable(r)) return r;
    await sleep(100);
  }
  throw new Error(`no final answer: ${answers.map((r) => r.status).join(' ')}`);
}

/**
 * b claims the key and waits on the lock; a is sent meanwhile; the lock is held 1.5 s (past the
 * 1 s transaction timeout), then both bodies are retried until final. The answers by body.
 */
async function race(path: string, a: unknown, b: unknown) {
  const key = randomUUID();
  const send = (body: unknown) => p.api.post(path, body, { headers: { 'idempotency-key': key } });
  const answers = { a: [] as ApiResponse[], b: [] as ApiResponse[] };
  await locker.query('BEGIN');
  await locker.query(`SELECT 1 FROM "LedgerAccount" WHERE "id" = $1 FOR UPDATE`, [`${h.accounts.USD}/AVAILABLE`]);
  const lockedAt = Date.now();
  const first = send(b).then((r) => answers.b.push(r));
  // Read through the locker's connection: the pool's may be queued behind b's blocked statement.
  const hashB = requestHash('POST', `${API_BASE}${path}`, canonicalJson(b));
  const claimed = `SELECT 1 FROM "IdempotencyRecord" WHERE "platformId" = $1 AND "key" = $2 AND "requestHash" = $3`;
  while (!(await locker.query(claimed, [p.platformId, key, hashB])).rowCount) await sleep(20);
  const sent = send(a);
  await sleep(Math.max(0, 1500 - (Date.now() - lockedAt)));
  await locker.query('ROLLBACK');
  const early = await sent;
  answers.a.push(early);
  await first;
  const finals = { a: await untilFinal(() => send(a), answers.a), b: await untilFinal(() => send(b), answers.b) };
  return { early, finals, answers };
}

/** One body's effect: its answers that are final are all 2xx; the other body's all 400. */
function expectOneWinner(answers: Record<'a' | 'b', ApiResponse[]>, winner: 'a' | 'b') {
  const loser = winner === 'a' ? 'b' : 'a';
  const shown = JSON.stringify({ a: answers.a.map((r) => r.status), b: answers.b.map((r) => r.status) });
  for (const r of answers[winner].filter((x) => !retryable(x))) expect(r.status, shown).toBeLessThan(300);
  for (const r of answers[loser].filter((x) => !retryable(x))) expect(r.status, shown).toBe(400);
}

const quoteNow = (marker: string, amount: number) => ({
  source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
  destination: { destinationType: 'ACCOUNT', accountId: h.accounts.EUR },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  description: marker,
  immediatelyExecute: true,
});

describe.skipIf(inject('embedded'))('Idempotency-Key: a changed body against a request blocked on a row lock', () => {
  beforeAll(async () => {
    p = await newPlatform();
    h = await customerWithAccounts(p, 'Lou Locked', ['USD', 'EUR']);
    await fund(p, h.accounts.USD, 10_000_000);
    external = await externalAccount(p, h.customerId, 'USD', '000');
    locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    process.env.CORRIDOR_IDEMPOTENCY_WAIT_MS = '300';
    process.env.CORRIDOR_TX_TIMEOUT_MS = '1000';
  });
  afterAll(async () => {
    delete process.env.CORRIDOR_IDEMPOTENCY_WAIT_MS;
    delete process.env.CORRIDOR_TX_TIMEOUT_MS;
    await locker.end();
    await expectLedgerBalanced(p.platformId);
  });

  it('quote-now: one quote, its body answered 201, the other 400', async () => {
    const m = randomUUID();
    const { early, answers } = await race('/quotes', quoteNow(`a ${m}`, 3000), quoteNow(`b ${m}`, 3001));
    // Sent while b's request waited: told to retry, not refused for good.
    expect(early.status, early.text).toBe(409);
    expect(early.headers.get('x-should-retry')).toBe('true');
    const count = (v: string) => db().quote.count({ where: { description: `${v} ${m}` } });
    const [a, b] = [await count('a'), await count('b')];
    expect(a + b).toBe(1);
    expectOneWinner(answers, a ? 'a' : 'b');
  }, 30_000);

  it('transfer-out: one transfer, its body answered 201, the other 400', async () => {
    const m = randomUUID();
    const body = (v: string, amount: number) => ({
      source: { accountId: h.accounts.USD },
      destination: { accountId: external },
      amount,
      remittanceInformation: `${v} ${m}`,
    });
    const { early, answers } = await race('/transfer-out', body('a', 700), body('b', 701));
    expect(early.status, early.text).toBe(409);
    expect(early.headers.get('x-should-retry')).toBe('true');
    const count = (v: string) => db().transaction.count({ where: { remittanceInformation: `${v} ${m}` } });
    const [a, b] = [await count('a'), await count('b')];
    expect(a + b).toBe(1);
    expectOneWinner(answers, a ? 'a' : 'b');
  }, 30_000);

  it('execute: the quote executed once, one body answered 200, the other 400', async () => {
    const q = await p.api.post('/quotes', { ...quoteNow(`quote ${randomUUID()}`, 2500), immediatelyExecute: false });
    expect(q.status, q.text).toBe(201);
    // The execution is one statement outside a transaction: it waits for the lock, and a's
    // attempt may queue behind it until then. Either way, no body is refused for good before
    // the key's answer is stored.
    const { finals, answers } = await race(`/quotes/${q.body.id}/execute`, { scaFactor: 'SMS_OTP' }, {});
    const holds = await db().ledgerTransfer.count({
      where: { kind: 'PAYMENT_HOLD', transactionId: q.body.transactionId },
    });
    expect(holds).toBe(1);
    expectOneWinner(answers, finals.a.status < 300 ? 'a' : 'b');
    expect([finals.a.status, finals.b.status].sort()).toEqual([200, 400]);
  }, 30_000);
});
