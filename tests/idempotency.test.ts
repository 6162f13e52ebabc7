import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { db } from '@/lib/core/db';
import { runAs, withClaim, type Actor } from '@/lib/core/context';
import { effect, findRecord, insertClaim } from '@/lib/core/idempotency';
import { instanceKey, isAlive } from '@/lib/core/instance';
import { canonicalJson, stringifyJson } from '@/lib/core/json';
import { requestHash } from '@/lib/core/keyed';
import { API_BASE } from '@/lib/core/mode';
import { created, endpoint } from '@/lib/http/endpoint';
import * as transfers from '@/lib/payments/transfers/service';

// One Idempotency-Key, one effect, whatever happens: a changed body racing the original, a
// repeat while the original runs, a process that died before or after its effect committed, a
// database that holds the transaction past its timeout (idempotency-timeout.test.ts). The answer
// of a committed effect is stored by the effect's own transaction, so it is always what a repeat
// gets.

/** An instance key no live process holds (the lock space is ours; keys are random 31-bit). */
async function deadInstance(): Promise<number> {
  for (let k = 2_000_000_000; ; k++) if (!(await isAlive(k))) return k;
}

const effects = (marker: string) => db().transaction.count({ where: { remittanceInformation: marker } });

let p: TestPlatform;
let h: Holder;
let external: string;
beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Ida Potent', ['USD']);
  await fund(p, h.accounts.USD, 100_000_000);
  external = await externalAccount(p, h.customerId, 'USD', '000');
});
afterAll(async () => {
  delete process.env.CORRIDOR_IDEMPOTENCY_WAIT_MS;
  await expectLedgerBalanced(p.platformId);
});

const transferBody = (marker: string, amount = 1_000) => ({
  source: { accountId: h.accounts.USD },
  destination: { accountId: external },
  amount,
  remittanceInformation: marker,
});
const transferOut = (key: string, body: unknown) =>
  p.api.post('/transfer-out', body, { headers: { 'idempotency-key': key } });

it('races a changed body against the original: one effect, the loser refused, the winner replayed', async () => {
  for (let round = 0; round < 30; round++) {
    const key = randomUUID();
    const marker = `race ${key}`;
    const a = transferBody(marker, 1_000);
    const b = transferBody(marker, 2_000);
    const [ra, rb] = await Promise.all([transferOut(key, a), transferOut(key, b)]);
    const statuses = [ra.status, rb.status].sort();
    expect(statuses, `${ra.text} / ${rb.text}`).toEqual([201, 400]);
    const [winner, winnerBody] = ra.status === 201 ? [ra, a] : [rb, b];
    const loser = ra.status === 201 ? rb : ra;
    expect(loser.body.code).toBe('INVALID_INPUT');
    expect(await effects(marker)).toBe(1);
    const again = await transferOut(key, winnerBody);
    expect(again.status).toBe(201);
    expect(again.text).toBe(winner.text);
  }
});

it('never lets a waiting repeat touch the running original’s claim', async () => {
  // A claim held by a live request (this process): a repeat of the same body and a changed body
  // both wait and then answer 409 (retry later: the original has not committed, so the changed
  // body is not refused for good yet, idempotency-changed-body.test.ts), and the claim is still
  // the original's.
  process.env.CORRIDOR_IDEMPOTENCY_WAIT_MS = '300';
  const key = randomUUID();
  const body = transferBody(`held ${key}`);
  const owner = `${await instanceKey()}:${randomUUID()}`;
  const hash = requestHash('POST', `${API_BASE}/transfer-out`, canonicalJson(body));
  const at = new Date();
  expect(
    await insertClaim({
      platformId: p.platformId,
      key,
      requestHash: hash,
      owner,
      ownerInstance: await instanceKey(),
      at,
      expiresAt: new Date(at.getTime() + 60_000),
    }),
  ).toBe(true);
  const changed = await transferOut(key, transferBody(`other ${key}`));
  expect(changed.status, changed.text).toBe(409);
  expect(changed.headers.get('x-should-retry')).toBe('true');
  const waiting = await transferOut(key, body);
  expect(waiting.status, waiting.text).toBe(409);
  expect(waiting.headers.get('x-should-retry')).toBe('true');
  const record = await findRecord(p.platformId, key);
  expect(record).toMatchObject({ state: 'PENDING', owner });
  expect(await effects(`held ${key}`)).toBe(0);
});

it('takes over the claim of a request whose process died before its effect, and executes once', async () => {
  const key = randomUUID();
  const marker = `dead ${key}`;
  const body = transferBody(marker);
  const at = new Date();
  const dead = await deadInstance();
  await insertClaim({
    platformId: p.platformId,
    key,
    requestHash: requestHash('POST', `${API_BASE}/transfer-out`, canonicalJson(body)),
    owner: `${dead}:${randomUUID()}`,
    ownerInstance: dead,
    at,
    expiresAt: new Date(at.getTime() + 60_000),
  });
  const results = await Promise.all([1, 2, 3].map(() => transferOut(key, body)));
  for (const r of results) expect(r.status, r.text).toBe(201);
  expect(new Set(results.map((r) => r.text)).size).toBe(1);
  expect(await effects(marker)).toBe(1);
});

it('replays the answer of an effect that committed before its process died', async () => {
  // The effect runs holding a claim of a process that then "dies" before answering: its answer
  // was stored by the effect's transaction, so the retry gets it and nothing runs again.
  const key = randomUUID();
  const marker = `committed ${key}`;
  const body = transferBody(marker);
  const dead = await deadInstance();
  const at = new Date();
  const claim = {
    platformId: p.platformId,
    key,
    owner: `${dead}:${randomUUID()}`,
    answer: (result: unknown) => ({ status: 201, text: stringifyJson(result) }),
  };
  await insertClaim({
    ...claim,
    requestHash: requestHash('POST', `${API_BASE}/transfer-out`, canonicalJson(body)),
    ownerInstance: dead,
    at,
    expiresAt: new Date(at.getTime() + 60_000),
  });
  const actor: Actor = { kind: 'system', platformId: p.platformId, clockOffsetMs: 0n, clockFrozenAt: null };
  const done = await runAs(actor, () =>
    withClaim(claim, () => transfers.transferOut(p.platformId, { ...body, amount: 1_000n } as never)),
  );
  expect(await findRecord(p.platformId, key)).toMatchObject({ state: 'DONE', responseStatus: 201 });
  const retry = await transferOut(key, body);
  expect(retry.status, retry.text).toBe(201);
  expect(retry.headers.get('idempotent-replayed')).toBe('true');
  expect(retry.body.id).toBe(done.id);
  expect(await effects(marker)).toBe(1);
});

it('answers the committed answer, never a 5xx, when the operation fails after its effect', async () => {
  const marker = `late failure ${randomUUID()}`;
  const op = endpoint(
    {
      method: 'POST',
      path: '/transfer-out',
      summary: 'test',
      tags: ['test'],
      permission: 'TRANSACT',
      idempotent: true,
      answer: created,
      responses: {},
    },
    async ({ actor }) => {
      await effect(async (tx) => {
        await tx.event.create({
          data: {
            id: `Event:${randomUUID()}`,
            platformId: actor.platformId,
            type: 'TEST',
            payload: stringifyJson({ marker }),
            createdAt: new Date(),
          },
        });
        return { marker };
      });
      throw new Error('the answer could not be built');
    },
  );
  const key = randomUUID();
  const call = () =>
    op(
      new Request(`http://localhost${API_BASE}/transfer-out`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${p.credentials.clientId}:${p.credentials.clientSecret}`).toString('base64')}`,
          'idempotency-key': key,
        },
      }),
      { params: Promise.resolve({}) },
    );
  const first = await call();
  expect(first.status).toBe(201);
  const text = await first.text();
  expect(JSON.parse(text)).toEqual({ marker });
  const second = await call();
  expect(second.status).toBe(201);
  expect(await second.text()).toBe(text);
  const events = await db().event.count({ where: { platformId: p.platformId, type: 'TEST' } });
  expect(events).toBe(1);
});
