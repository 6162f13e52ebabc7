import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { db } from '@/lib/core/db';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { advance, balanceOf, customerWithAccounts, txn, type Holder } from '@/tests/support/money';
import { receiverFor, type Receiver } from '@/tests/support/webhook-receiver';

const D = 'sandbox.uma.money';

// The incoming-payment approval mechanism: the platform's answer to the INCOMING_PAYMENT.PENDING
// webhook decides the payment; 202 hands the decision to POST /transactions/{id}/approve|reject
// within five seconds, after which the payment is rejected.
let p: TestPlatform;
let h: Holder;
let receiver: Receiver;
let answer = 200;
beforeAll(async () => {
  process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1';
  p = await newPlatform();
  ({ rx: receiver } = await receiverFor(p, (r) =>
    r.json.type === 'INCOMING_PAYMENT.PENDING'
      ? { status: answer, body: answer === 200 ? '{"receiverCustomerInfo":{"FULL_NAME":"Hal Holder"}}' : '' }
      : { status: 200 },
  ));
  h = await customerWithAccounts(p, 'Hal Holder', ['USD']);
});
afterAll(async () => {
  await receiver.close();
  await expectLedgerBalanced(p.platformId);
});

const receive = (amount: number) =>
  p.api.post('/sandbox/uma/receive', {
    senderUmaAddress: `$success.usd@${D}`,
    customerId: h.customerId,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: amount,
  });

it('200 approves: the payment completes and the money arrives', async () => {
  answer = 200;
  const before = await balanceOf(p, h.accounts.USD);
  const res = await receive(1000);
  expect(res.body.status).toBe('PENDING');
  expect(res.body.reconciliationInstructions).toEqual({ reference: expect.stringMatching(/^CR[0-9A-F]{10}$/) }); // also while PENDING
  await advance(p, 1); // delivers the webhook
  const t = await txn(p, res.body.id);
  expect(t.status).toBe('COMPLETED');
  expect(t.counterpartyInformation.receiverCustomerInfo).toEqual({ FULL_NAME: 'Hal Holder' });
  expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available + 1000n);
  const pending = receiver.received.find(
    (r) => r.json.type === 'INCOMING_PAYMENT.PENDING' && r.json.data.id === res.body.id,
  )!;
  expect(pending.signatureValid).toBe(true);
});

it('$pending.long: an approved payment stays in flight and nothing is credited; without a webhook it stays PENDING', async () => {
  answer = 200;
  const before = await balanceOf(p, h.accounts.USD);
  const res = await p.api.post('/sandbox/uma/receive', {
    senderUmaAddress: `$pending.long.usd@${D}`,
    customerId: h.customerId,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: 4444,
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body.status).toBe('PENDING');
  await advance(p, 1); // the webhook is answered 200
  expect((await txn(p, res.body.id)).status).toBe('PROCESSING');
  await advance(p, 24 * 3600); // nor a day later, nor did the approval window reject it
  expect((await txn(p, res.body.id)).status).toBe('PROCESSING');
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
  // A platform without an endpoint cannot approve: it stays PENDING.
  const quiet = await newPlatform();
  const q = await customerWithAccounts(quiet, 'Quiet Holder', ['USD']);
  const res2 = await quiet.api.post('/sandbox/uma/receive', {
    senderUmaAddress: `$pending.long.usd@${D}`,
    customerId: q.customerId,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: 4444,
  });
  await advance(quiet, 3600);
  expect((await txn(quiet, res2.body.id)).status).toBe('PENDING');
  expect((await balanceOf(quiet, q.accounts.USD)).total).toBe(0n);
});

it('403 rejects; nothing is booked', async () => {
  answer = 403;
  const before = await balanceOf(p, h.accounts.USD);
  const res = await receive(2000);
  await advance(p, 1);
  expect((await txn(p, res.body.id)).status).toBe('REJECTED');
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
  // The answer was received: the webhook is delivered once, not retried as a failure.
  await advance(p, 3600);
  expect(
    receiver.received.filter((r) => r.json.type === 'INCOMING_PAYMENT.PENDING' && r.json.data.id === res.body.id),
  ).toHaveLength(1);
});

it('422 rejects for missing payee data', async () => {
  answer = 422;
  const res = await receive(2000);
  await advance(p, 1);
  expect(await txn(p, res.body.id)).toMatchObject({
    status: 'REJECTED',
    failureReason: 'MISSING_MANDATORY_PAYEE_DATA',
  });
  await advance(p, 3600);
  expect(
    receiver.received.filter((r) => r.json.type === 'INCOMING_PAYMENT.PENDING' && r.json.data.id === res.body.id),
  ).toHaveLength(1);
});

it('202 waits for POST /approve, which completes it', async () => {
  answer = 202;
  const before = await balanceOf(p, h.accounts.USD);
  const res = await receive(3000);
  expectError(
    await p.api.post(`/transactions/${res.body.id}/approve`),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
  await advance(p, 1);
  const approved = await p.api.post(`/transactions/${res.body.id}/approve`, {
    receiverCustomerInfo: { FULL_NAME: 'Hal' },
  });
  expect(approved.status, approved.text).toBe(200);
  expect(approved.body.status).toBe('COMPLETED');
  expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available + 3000n);
  expectError(
    await p.api.post(`/transactions/${res.body.id}/approve`),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
  expectError(
    await p.api.post(`/transactions/${res.body.id}/reject`),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
});

it("POST /reject keeps its reason as the platform's note, out of the transaction's description", async () => {
  answer = 202;
  const res = await receive(2500);
  await advance(p, 1);
  const rejected = await p.api.post(`/transactions/${res.body.id}/reject`, { reason: 'RESTRICTED_JURISDICTION' });
  expect(rejected.status, rejected.text).toBe(200);
  expect(rejected.body.status).toBe('REJECTED');
  expect(rejected.body.description ?? null).toBe(res.body.description ?? null);
  expect(JSON.stringify(rejected.body)).not.toContain('RESTRICTED_JURISDICTION');
  expect((await db().transaction.findUnique({ where: { id: res.body.id } }))?.platformReason).toBe(
    'RESTRICTED_JURISDICTION',
  );
});

it('202 then POST /reject rejects; a concurrent approve and reject have one winner', async () => {
  answer = 202;
  const res = await receive(4000);
  await advance(p, 1);
  const [a, r] = await Promise.all([
    p.api.post(`/transactions/${res.body.id}/approve`),
    p.api.post(`/transactions/${res.body.id}/reject`, { reason: 'RESTRICTED_JURISDICTION' }),
  ]);
  expect([a.status, r.status].sort()).toEqual([200, 409]);
  const final = await txn(p, res.body.id);
  expect(['COMPLETED', 'REJECTED']).toContain(final.status);
});

it('202 without a decision within five seconds is rejected as timed out', async () => {
  answer = 202;
  const res = await receive(5000);
  await advance(p, 1);
  await advance(p, 5);
  expect(await txn(p, res.body.id)).toMatchObject({
    status: 'REJECTED',
    failureReason: 'PAYMENT_APPROVAL_TIMED_OUT',
  });
  expectError(
    await p.api.post(`/transactions/${res.body.id}/approve`),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
});
