import { afterEach, beforeAll, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { advance, balanceOf, customerWithAccounts, fund, txn, type Holder } from '@/tests/support/money';

const D = 'sandbox.uma.money';

let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Uma Sender', ['USD', 'EUR', 'MXN']);
  await fund(p, h.accounts.USD, 5_000_000);
});
afterEach(async () => {
  await expectLedgerBalanced();
});

it.each([
  [`$success.usd@${D}`, 'USD'],
  [`$success.eur@${D}`, 'EUR'],
  [`$success.mxn@${D}`, 'MXN'],
  [`$pending.long.usd@${D}`, 'USD'],
  [`$fail.compliance.usd@${D}`, 'USD'],
])('looks up %s (receives %s)', async (address, currency) => {
  const res = await p.api.get(`/receiver/uma/${encodeURIComponent(address)}`, {
    query: { customerId: h.customerId },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body.receiverUmaAddress).toBe(address);
  expect(res.body.lookupId).toMatch(/^Lookup:/);
  expect(res.body.supportedCurrencies.map((c: { currency: { code: string } }) => c.currency.code)).toEqual([currency]);
  expect(res.body.requiredPayerDataFields).toContainEqual({ name: 'FULL_NAME', mandatory: true });
});

it('refuses bad, unknown and unreachable addresses', async () => {
  const sender = { query: { customerId: h.customerId } };
  expectError(await p.api.get('/receiver/uma/not-an-address', sender), 400, 'INVALID_UMA_ADDRESS');
  expectError(
    await p.api.get(`/receiver/uma/${encodeURIComponent(`$nobody.here@${D}`)}`, sender),
    404,
    'UMA_NOT_FOUND',
  );
  expectError(
    await p.api.get(`/receiver/uma/${encodeURIComponent('$alice@elsewhere.example')}`, sender),
    424,
    'LNURLP_REQUEST_FAILED',
  );
  // The sender is required: customerId or senderUmaAddress (each optional only with the other).
  const anonymous = await p.api.get(`/receiver/uma/${encodeURIComponent(`$success.usd@${D}`)}`);
  expectError(anonymous, 400, 'INVALID_INPUT');
  expect(anonymous.body.details.errors[0].field).toBe('customerId');
  expect(
    (
      await p.api.get(`/receiver/uma/${encodeURIComponent(`$success.usd@${D}`)}`, {
        query: { senderUmaAddress: `$someone@${D}` },
      })
    ).status,
  ).toBe(200);
  expectError(
    await p.api.get(`/receiver/uma/${encodeURIComponent(`$success.usd@${D}`)}`, {
      query: { customerId: 'Customer:00000000-0000-0000-0000-000000000000' },
    }),
    404,
    'USER_NOT_FOUND',
  );
});

async function umaQuote(address: string, amount: number, extra: Record<string, unknown> = {}) {
  const lookup = await p.api.get(`/receiver/uma/${encodeURIComponent(address)}`, {
    query: { customerId: h.customerId },
  });
  return p.api.post('/quotes', {
    lookupId: lookup.body.lookupId,
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: address },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
    senderCustomerInfo: { FULL_NAME: 'Uma Sender' },
    ...extra,
  });
}

it('pays a sandbox UMA address: $success.mxn completes', async () => {
  const q = await umaQuote(`$success.mxn@${D}`, 10000);
  expect(q.status, q.text).toBe(201);
  expect(q.body.receivingCurrency.code).toBe('MXN');
  expect(q.body.destination).toEqual({
    destinationType: 'UMA_ADDRESS',
    umaAddress: `$success.mxn@${D}`,
    currency: 'MXN',
  });
  await p.api.post(`/quotes/${q.body.id}/execute`);
  await advance(p, 5);
  expect((await txn(p, q.body.transactionId)).status).toBe('COMPLETED');
});

it('pays same-currency over UMA ($success.usd from USD)', async () => {
  const q = await umaQuote(`$success.usd@${D}`, 2500);
  expect(q.status, q.text).toBe(201);
  expect(q.body.exchangeRate).toBe(1);
  expect(q.body.totalReceivingAmount).toBe(2500 - q.body.feesIncluded);
});

it('$fail.compliance fails the compliance check and refunds; $pending.long stays pending', async () => {
  const before = await balanceOf(p, h.accounts.USD);
  const fail = await umaQuote(`$fail.compliance.usd@${D}`, 1000);
  await p.api.post(`/quotes/${fail.body.id}/execute`);
  const slow = await umaQuote(`$pending.long.usd@${D}`, 1000);
  await p.api.post(`/quotes/${slow.body.id}/execute`);
  await advance(p, 3600);
  expect(await txn(p, fail.body.transactionId)).toMatchObject({
    status: 'FAILED',
    failureReason: 'COMPLIANCE_REJECTED',
    refund: { status: 'COMPLETED' },
  });
  expect((await txn(p, slow.body.transactionId)).status).toBe('PROCESSING');
  expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available - 1000n);
});

it('requires a lookupId, a matching one, and every mandatory payer field', async () => {
  const noLookup = await p.api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.eur@${D}` },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 100,
  });
  expectError(noLookup, 400, 'INVALID_INPUT');
  expect(noLookup.body.details.errors[0].field).toBe('lookupId');
  const other = await p.api.get(`/receiver/uma/${encodeURIComponent(`$success.usd@${D}`)}`, {
    query: { customerId: h.customerId },
  });
  const mismatch = await p.api.post('/quotes', {
    lookupId: other.body.lookupId,
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.eur@${D}` },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 100,
    senderCustomerInfo: { FULL_NAME: 'x' },
  });
  expectError(mismatch, 400, 'INVALID_INPUT');
  const missing = await umaQuote(`$success.eur@${D}`, 100, { senderCustomerInfo: {} });
  expectError(missing, 400, 'MISSING_MANDATORY_USER_INFO');
  expect(missing.body.details.errors).toEqual([
    { field: 'senderCustomerInfo.FULL_NAME', message: 'is required by the receiving institution' },
  ]);
  const wrongCurrency = await umaQuote(`$success.eur@${D}`, 100, {
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.eur@${D}`, currency: 'MXN' },
  });
  expectError(wrongCurrency, 400, 'INVALID_CURRENCY');
  // A lookup answers for the customer it named: another customer's quote cannot use it.
  const eve = await customerWithAccounts(p, 'Eve Elsewhere', ['USD']);
  const hers = await p.api.get(`/receiver/uma/${encodeURIComponent(`$success.eur@${D}`)}`, {
    query: { customerId: h.customerId },
  });
  const borrowed = await p.api.post('/quotes', {
    lookupId: hers.body.lookupId,
    source: { sourceType: 'ACCOUNT', accountId: eve.accounts.USD },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.eur@${D}` },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 100,
    senderCustomerInfo: { FULL_NAME: 'Eve Elsewhere' },
  });
  expectError(borrowed, 400, 'INVALID_INPUT');
  expect(borrowed.body.details.errors[0].field).toBe('lookupId');
  const own = await p.api.post('/quotes', {
    lookupId: hers.body.lookupId,
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.eur@${D}` },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 100,
    senderCustomerInfo: { FULL_NAME: 'Hal' },
  });
  expect(own.status, own.text).toBe(201);
});

it('pays another customer of the service by UMA address: both sides are booked', async () => {
  const q2 = await newPlatform();
  const bob = await customerWithAccounts(q2, 'Bob Receiver', ['EUR']);
  const before = await balanceOf(q2, bob.accounts.EUR);
  const lookup = await p.api.get(`/receiver/uma/${encodeURIComponent(bob.umaAddress)}`, {
    query: { customerId: h.customerId },
  });
  expect(lookup.status, lookup.text).toBe(200);
  expect(lookup.body.requiredPayerDataFields).toEqual([]);
  const q = await p.api.post('/quotes', {
    lookupId: lookup.body.lookupId,
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: bob.umaAddress },
    lockedCurrencySide: 'RECEIVING',
    lockedCurrencyAmount: 4200,
  });
  expect(q.status, q.text).toBe(201);
  await p.api.post(`/quotes/${q.body.id}/execute`);
  await advance(p, 5);
  expect((await txn(p, q.body.transactionId)).status).toBe('COMPLETED');
  expect((await balanceOf(q2, bob.accounts.EUR)).available).toBe(before.available + 4200n);
  const incoming = await q2.api.get('/transactions', { query: { customerId: bob.customerId, type: 'INCOMING' } });
  expect(incoming.body.data[0]).toMatchObject({
    type: 'INCOMING',
    direction: 'CREDIT',
    status: 'COMPLETED',
    receivedAmount: { amount: 4200 },
    source: { sourceType: 'UMA_ADDRESS', umaAddress: h.umaAddress },
  });
  // Reference: every incoming transaction past CREATED carries reconciliationInstructions.
  expect(incoming.body.data[0].reconciliationInstructions).toEqual({
    reference: expect.stringMatching(/^CR[0-9A-F]{10}$/),
  });
  expect((await eventsOf(q2.platformId, 'INCOMING_PAYMENT.COMPLETED')).length).toBe(1);
  // Paying yourself is refused.
  const self = await p.api.get(`/receiver/uma/${encodeURIComponent(h.umaAddress)}`, {
    query: { customerId: h.customerId },
  });
  expectError(
    await p.api.post('/quotes', {
      lookupId: self.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: h.umaAddress, currency: 'EUR' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 100,
    }),
    400,
    'SELF_PAYMENT',
  );
});
