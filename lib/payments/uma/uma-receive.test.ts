import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { balanceOf, customerWithAccounts, externalAccount, txn } from '@/tests/support/money';

const D = 'sandbox.uma.money';

// POST /sandbox/uma/receive: incoming UMA payments from a sandbox sender.
let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});
afterEach(async () => {
  await expectLedgerBalanced();
});

it("applies the corridor's single-transaction limit; a balance past int64 is refused with nothing booked", async () => {
  const q3 = await newPlatform();
  const r = await customerWithAccounts(q3, 'Max Receiver', ['USD']);
  const receive = (amount: bigint) =>
    q3.api.post('/sandbox/uma/receive', {
      senderUmaAddress: `$success.usd@${D}`,
      customerId: r.customerId,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: amount,
    });
  expectError(await receive(9_223_372_036_854_775_807n), 400, 'TRANSACTION_SIZE_LIMIT_EXCEEDED');
  // With the limit raised to int64's maximum, the second payment would overflow the balance.
  const cfg = await q3.api.patch('/config', {
    supportedCurrencies: [
      {
        currencyCode: 'USD',
        minAmount: 1,
        maxAmount: 9_223_372_036_854_775_807n,
        requiredCounterpartyFields: [],
        enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
      },
    ],
  });
  expect(cfg.status, cfg.text).toBe(200);
  expect((await receive(5_000_000_000_000_000_000n)).status).toBe(200);
  const before = await balanceOf(q3, r.accounts.USD);
  expectError(await receive(5_000_000_000_000_000_000n), 400, 'INVALID_INPUT');
  expect(await balanceOf(q3, r.accounts.USD)).toEqual(before);
  await expectLedgerBalanced(q3.platformId);
});

/** POST /sandbox/uma/receive from a sandbox sender (`$success.usd`...) to a customer or UMA address. */
const umaReceive = (
  sender: string,
  to: { customerId: string } | { receiverUmaAddress: string },
  currency: string,
  amount: number,
) =>
  p.api.post('/sandbox/uma/receive', {
    senderUmaAddress: `${sender}@${D}`,
    ...to,
    receivingCurrencyCode: currency,
    receivingCurrencyAmount: amount,
  });

it('deposits into the primary internal account when there is no default UMA deposit account', async () => {
  const r = await customerWithAccounts(p, 'Rita Receiver', ['USD', 'EUR']);
  const res = await umaReceive('$success.usd', { receiverUmaAddress: r.umaAddress }, 'USD', 1234);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({
    type: 'INCOMING',
    status: 'COMPLETED',
    receivedAmount: { amount: 1234 },
    source: { umaAddress: `$success.usd@${D}` },
  });
  expect(res.body.reconciliationInstructions).toEqual({ reference: expect.stringMatching(/^CR[0-9A-F]{10}$/) });
  expect((await balanceOf(p, r.accounts.USD)).available).toBe(1234n);
  const byId = await umaReceive('$success.eur', { customerId: r.customerId }, 'EUR', 99);
  expect(byId.body.status).toBe('COMPLETED');
  expect((await balanceOf(p, r.accounts.EUR)).available).toBe(99n);
});

it('shows what the sender paid in its own currency: $success.mxn@ pays MXN for a USD receipt', async () => {
  const r = await customerWithAccounts(p, 'Max Receiver', ['USD']);
  const res = await umaReceive('$success.mxn', { customerId: r.customerId }, 'USD', 10000);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({
    status: 'COMPLETED',
    source: { sourceType: 'UMA_ADDRESS', currency: 'MXN' },
    receivedAmount: { amount: 10000, currency: { code: 'USD' } },
    sentAmount: { currency: { code: 'MXN' } },
  });
  // exchangeRate is sending units per receiving unit: the MXN sent is the USD received at that
  // rate, rounded up to the centavo.
  const sent = Number(res.body.sentAmount.amount);
  expect(sent).toBeGreaterThan(10000 * 5);
  expect(Math.abs(sent - 10000 * res.body.exchangeRate)).toBeLessThanOrEqual(1);
  expect((await balanceOf(p, r.accounts.USD)).available).toBe(10000n); // the receiver gets the amount asked for
  // Same currency: no conversion, no rate.
  const same = await umaReceive('$success.usd', { customerId: r.customerId }, 'USD', 500);
  expect(same.body.source.currency).toBe('USD');
  expect(same.body).not.toHaveProperty('exchangeRate');
});

it('deposits into the default UMA deposit account when one is set', async () => {
  const r = await customerWithAccounts(p, 'Dora Default', ['USD']);
  const ext = await externalAccount(p, r.customerId, 'MXN', '555', { defaultUmaDepositAccount: true });
  const res = await umaReceive('$success.mxn', { customerId: r.customerId }, 'MXN', 5000);
  expect(res.status, res.text).toBe(200);
  expect(res.body.destination.accountId ?? res.body.destination.umaAddress).toBeDefined();
  expect((await txn(p, res.body.id)).status).toBe('COMPLETED');
  const t = await txn(p, res.body.id);
  expect(t.receivedAmount.amount).toBe(5000);
  expect((await balanceOf(p, r.accounts.USD)).available).toBe(0n);
  void ext;
  expectError(await umaReceive('$success.usd', { customerId: r.customerId }, 'USD', 1), 400, 'INVALID_CURRENCY');
});

it('a compliance-failing sender fails the incoming payment; errors for unknown parties', async () => {
  const r = await customerWithAccounts(p, 'Cara Compliance', ['USD']);
  const res = await umaReceive('$fail.compliance.usd', { customerId: r.customerId }, 'USD', 100);
  expect(res.body).toMatchObject({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' });
  expect((await balanceOf(p, r.accounts.USD)).total).toBe(0n);
  expectError(await umaReceive('$stranger', { customerId: r.customerId }, 'USD', 100), 404, 'UMA_NOT_FOUND');
  expectError(
    await p.api.post('/sandbox/uma/receive', {
      senderUmaAddress: `$success.usd@${D}`,
      receiverUmaAddress: `$ghost@${D}`,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
    }),
    404,
    'UMA_NOT_FOUND',
  );
  expectError(
    await p.api.post('/sandbox/uma/receive', {
      senderUmaAddress: `$success.usd@${D}`,
      customerId: 'Customer:00000000-0000-0000-0000-000000000000',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
    }),
    404,
    'USER_NOT_FOUND',
  );
  expectError(
    await p.api.post('/sandbox/uma/receive', {
      senderUmaAddress: `$success.usd@${D}`,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
    }),
    400,
    'INVALID_INPUT',
  );
});
