import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { db } from '@/lib/core/db';
import { invalidInput } from '@/lib/core/errors';
import type { Claim } from '@/lib/core/context';
import { findRecord, insertClaim, release } from '@/lib/core/idempotency';
import { instanceKey, isAlive } from '@/lib/core/instance';
import { canonicalJson } from '@/lib/core/json';
import { API_BASE } from '@/lib/core/mode';
import { requestHash } from '@/lib/core/keyed';
import { created, endpoint } from '@/lib/http/endpoint';

// A changed body under an Idempotency-Key whose request has not committed (issue 22's soak:
// `committed-not-answered`, a quote-now answered 400 whose quote exists). The key's holder may
// still fail and let the key go; an earlier attempt of the changed body, given up by its client
// but still on its way, then claims the key and commits. So a changed body is refused for good
// (400) only once the key's answer is stored; before that it is told to retry (409 in progress).
// With a real row lock, on PostgreSQL: idempotency-changed-body-lock.test.ts.

let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Kay Changed', ['USD', 'EUR']);
  await fund(p, h.accounts.USD, 10_000_000);
  process.env.CORRIDOR_IDEMPOTENCY_WAIT_MS = '300';
});
afterAll(async () => {
  delete process.env.CORRIDOR_IDEMPOTENCY_WAIT_MS;
  await expectLedgerBalanced(p.platformId);
});

const quoteNow = (marker: string, amount: number) => ({
  source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
  destination: { destinationType: 'ACCOUNT', accountId: h.accounts.EUR },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  description: marker,
  immediatelyExecute: true,
});
const post = (key: string, body: unknown) => p.api.post('/quotes', body, { headers: { 'idempotency-key': key } });
const quotes = (marker: string) => db().quote.count({ where: { description: marker } });

/** An instance key no live process holds (the lock space is ours; keys are random 31-bit). */
async function deadInstance(): Promise<number> {
  for (let k = 2_000_000_000; ; k++) if (!(await isAlive(k))) return k;
}

/** The key claimed for `body` by a request of the process `ownerInstance` (running, or dead). */
async function claimFor(key: string, body: unknown, ownerInstance: number): Promise<Claim> {
  const claim: Claim = {
    platformId: p.platformId,
    key,
    owner: `${ownerInstance}:${randomUUID()}`,
    answer: () => ({ status: 500, text: '' }),
  };
  const at = new Date();
  const requestHash_ = requestHash('POST', `${API_BASE}/quotes`, canonicalJson(body));
  const expiresAt = new Date(at.getTime() + 60_000);
  const { platformId, owner } = claim;
  expect(await insertClaim({ platformId, key, owner, requestHash: requestHash_, ownerInstance, at, expiresAt })).toBe(
    true,
  );
  return claim;
}

it('tells a changed body to retry while the key’s request runs; its later attempt may be the one that commits', async () => {
  const key = randomUUID();
  const [a, b] = [quoteNow(`a ${key}`, 3000), quoteNow(`b ${key}`, 3001)];
  // b's request holds the key and runs (waiting on a row lock, say).
  const held = await claimFor(key, b, await instanceKey());
  // a, sent meanwhile, is not refused for good: nothing under the key has committed.
  const early = await post(key, a);
  expect(early.status, early.text).toBe(409);
  expect(early.body.code).toBe('CONFLICT');
  expect(early.body.message).toMatch(/different request .* in progress/);
  expect(early.headers.get('x-should-retry')).toBe('true');
  expect(await findRecord(p.platformId, key)).toMatchObject({ state: 'PENDING', owner: held.owner });
  // b's request fails without an effect (503: its transaction timed out) and lets the key go;
  // an attempt of a that was still on its way claims it and commits.
  await release(held);
  const late = await post(key, a);
  expect(late.status, late.text).toBe(201);
  expect(await quotes(`a ${key}`)).toBe(1);
  // Now the key is a's for good: b is refused (final), a replayed byte for byte.
  const refused = await post(key, b);
  expect(refused.status, refused.text).toBe(400);
  expect(refused.body.code).toBe('INVALID_INPUT');
  expect(refused.headers.get('x-should-retry')).toBe('false');
  const again = await post(key, a);
  expect(again.status).toBe(201);
  expect(again.text).toBe(late.text);
  expect(await quotes(`b ${key}`)).toBe(0);
});

it('lets a changed body take over a dead request’s claim; the key is then the changed body’s', async () => {
  const key = randomUUID();
  const [a, b] = [quoteNow(`a ${key}`, 4000), quoteNow(`b ${key}`, 4001)];
  await claimFor(key, b, await deadInstance());
  const taken = await post(key, a);
  expect(taken.status, taken.text).toBe(201);
  expect(await quotes(`a ${key}`)).toBe(1);
  // The dead request's body is now the different one: refused, never given a's answer.
  const original = await post(key, b);
  expect(original.status, original.text).toBe(400);
  expect(original.body.code).toBe('INVALID_INPUT');
  expect(await quotes(`b ${key}`)).toBe(0);
  expect((await post(key, a)).text).toBe(taken.text);
});

it('does not answer its own refusal as final when its claim was taken over while it ran', async () => {
  // The owner's process looked dead (its instance lock lost) and a retry took the claim over;
  // the retry may still commit, so this attempt's 400 must not tell the client to stop.
  const key = randomUUID();
  const taker = `${await instanceKey()}:${randomUUID()}`;
  const op = endpoint(
    {
      method: 'POST',
      path: '/quotes',
      summary: 'test',
      tags: ['test'],
      permission: 'TRANSACT',
      idempotent: true,
      answer: created,
      responses: {},
    },
    async () => {
      await db().idempotencyRecord.updateMany({ where: { platformId: p.platformId, key }, data: { owner: taker } });
      throw invalidInput('Insufficient balance');
    },
  );
  const auth = `Basic ${Buffer.from(`${p.credentials.clientId}:${p.credentials.clientSecret}`).toString('base64')}`;
  const res = await op(
    new Request(`http://localhost${API_BASE}/quotes`, {
      method: 'POST',
      headers: { authorization: auth, 'idempotency-key': key },
    }),
    { params: Promise.resolve({}) },
  );
  expect(res.status, await res.clone().text()).toBe(409);
  expect(res.headers.get('x-should-retry')).toBe('true');
  // The taker's claim is untouched: no refusal stored under the key.
  expect(await findRecord(p.platformId, key)).toMatchObject({ state: 'PENDING', owner: taker });
});
