import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { customerWithAccounts, fund, type Holder } from '@/tests/support/money';

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

it('a receiver taking several currencies lists the payer fields any of them needs, and the quote asks for no more', async () => {
  const q2 = await newPlatform();
  // EUR needs the payer's nationality on this receiving platform; MXN needs nothing.
  const cfg = await q2.api.patch('/config', {
    supportedCurrencies: [
      {
        currencyCode: 'EUR',
        minAmount: 1,
        maxAmount: 1_000_000_000,
        requiredCounterpartyFields: [{ name: 'NATIONALITY', mandatory: true }],
        enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
      },
      {
        currencyCode: 'MXN',
        minAmount: 1,
        maxAmount: 1_000_000_000,
        requiredCounterpartyFields: [],
        enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
      },
    ],
  });
  expect(cfg.status, cfg.text).toBe(200);
  const bob = await customerWithAccounts(q2, 'Bob Twocurrency', ['MXN', 'EUR']);
  const lookup = await p.api.get(`/receiver/uma/${encodeURIComponent(bob.umaAddress)}`, {
    query: { customerId: h.customerId },
  });
  expect(lookup.status, lookup.text).toBe(200);
  expect(lookup.body.requiredPayerDataFields).toEqual([{ name: 'NATIONALITY', mandatory: true }]);
  const quote = (currency: string, info?: Record<string, string>) =>
    p.api.post('/quotes', {
      lookupId: lookup.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: bob.umaAddress, currency },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
      ...(info ? { senderCustomerInfo: info } : {}),
    });
  // Every field the lookup listed must be supplied, whichever currency is chosen.
  expectError(await quote('EUR'), 400, 'MISSING_MANDATORY_USER_INFO');
  expectError(await quote('MXN'), 400, 'MISSING_MANDATORY_USER_INFO');
  expect((await quote('EUR', { NATIONALITY: 'US' })).status).toBe(201);
});

it('every listed payer field must be supplied, also one the receiving platform marked mandatory: false', async () => {
  const q2 = await newPlatform();
  const cfg = await q2.api.patch('/config', {
    supportedCurrencies: [
      {
        currencyCode: 'EUR',
        minAmount: 1,
        maxAmount: 1_000_000_000,
        requiredCounterpartyFields: [
          { name: 'FULL_NAME', mandatory: true },
          { name: 'BIRTH_DATE', mandatory: false },
        ],
        enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
      },
    ],
  });
  expect(cfg.status, cfg.text).toBe(200);
  const cleo = await customerWithAccounts(q2, 'Cleo Optional', ['EUR']);
  const lookup = await p.api.get(`/receiver/uma/${encodeURIComponent(cleo.umaAddress)}`, {
    query: { customerId: h.customerId },
  });
  expect(lookup.body.requiredPayerDataFields).toEqual([
    { name: 'FULL_NAME', mandatory: true },
    { name: 'BIRTH_DATE', mandatory: false },
  ]);
  const quote = (info: Record<string, string>) =>
    p.api.post('/quotes', {
      lookupId: lookup.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: cleo.umaAddress, currency: 'EUR' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
      senderCustomerInfo: info,
    });
  // Spec: "Every field listed in requiredPayerDataFields by the receiver lookup MUST be supplied."
  const missing = await quote({ FULL_NAME: 'Uma Sender' });
  expectError(missing, 400, 'MISSING_MANDATORY_USER_INFO');
  expect(missing.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['senderCustomerInfo.BIRTH_DATE']);
  expect((await quote({ FULL_NAME: 'Uma Sender', BIRTH_DATE: '1990-01-01' })).status).toBe(201);
});
