import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { db } from '@/lib/core/db';

// One Idempotency-Key, one effect, also when the database holds the transaction past its timeout
// (PostgreSQL only: the lock is taken from a second connection). idempotency.test.ts has the rest.
const effects = (marker: string) => db().transaction.count({ where: { remittanceInformation: marker } });

describe.skipIf(inject('embedded'))('Idempotency-Key: a database holding the transaction past its timeout', () => {
  let p: TestPlatform;
  let h: Holder;
  let external: string;
  let locker: pg.Client;
  beforeAll(async () => {
    p = await newPlatform();
    h = await customerWithAccounts(p, 'Slow Lock', ['USD']);
    await fund(p, h.accounts.USD, 1_000_000);
    external = await externalAccount(p, h.customerId, 'USD', '000');
    locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
  });
  afterAll(async () => {
    delete process.env.CORRIDOR_TX_TIMEOUT_MS;
    await locker.end();
  });

  it('answers 503 for a rolled-back attempt, then executes exactly once on retry', async () => {
    process.env.CORRIDOR_TX_TIMEOUT_MS = '1000';
    const key = randomUUID();
    const marker = `slow ${key}`;
    const body = {
      source: { accountId: h.accounts.USD },
      destination: { accountId: external },
      amount: 500,
      remittanceInformation: marker,
    };
    const send = () => p.api.post('/transfer-out', body, { headers: { 'idempotency-key': key } });
    await locker.query('BEGIN');
    await locker.query(`SELECT * FROM "LedgerAccount" WHERE "id" = $1 FOR UPDATE`, [`${h.accounts.USD}/AVAILABLE`]);
    const first = send();
    const release = new Promise((r) => setTimeout(r, 3_000)).then(() => locker.query('ROLLBACK'));
    const answered = await first;
    await release;
    // The transaction waited on the lock past its timeout and was rolled back: nothing happened.
    expect(answered.status, answered.text).toBe(503);
    expect(answered.body.code).toBe('SERVICE_UNAVAILABLE');
    await new Promise((r) => setTimeout(r, 500));
    expect(await effects(marker)).toBe(0);
    const retry = await send();
    expect(retry.status, retry.text).toBe(201);
    const again = await send();
    expect(again.text).toBe(retry.text);
    expect(await effects(marker)).toBe(1);
    await expectLedgerBalanced(p.platformId);
  }, 30_000);
});
