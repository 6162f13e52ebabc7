import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { itWithReference } from '@/tests/support/needs-reference';
import { business, KEY_RULE_BREAKS, SAMPLES } from './testing';

// Every accountType variant of the reference: one valid create each (the response is checked
// against the served document, and the reference's schema when present, by the test client), and a
// field error for each key identifier rule.
const createTypesIn = (file: string) =>
  Object.keys(
    YAML.parse(readFileSync(file, 'utf8')).components.schemas.ExternalAccountCreateInfoOneOf.discriminator.mapping,
  );
const fieldsOf = (res: { body: { details?: { errors?: { field: string }[] } } }) =>
  (res.body.details?.errors ?? []).map((e) => e.field);

let p: TestPlatform;
let customerId: string;
beforeAll(async () => {
  p = await newPlatform();
  const c = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Variant Owner', region: 'US' });
  customerId = c.body.id;
});

itWithReference('openapi.yaml', 'has a sample and a key-rule break for every accountType of the reference', (file) => {
  const createTypes = createTypesIn(file);
  expect(SAMPLES.map((s) => s.accountType).sort()).toEqual([...createTypes].sort());
  expect(Object.keys(KEY_RULE_BREAKS).sort()).toEqual([...createTypes].sort());
});

it.each(SAMPLES.map((s) => [s.accountType, s] as const))('creates a %s', async (_type, s) => {
  const res = await p.api.post('/customers/external-accounts', {
    customerId,
    currency: s.currency,
    accountInfo: s.info('001'),
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    customerId,
    currency: s.currency,
    status: 'ACTIVE',
    beneficiaryVerificationStatus: 'MATCHED',
    defaultUmaDepositAccount: false,
  });
  expect(res.body.id).toMatch(/^ExternalAccount:[0-9a-f-]{36}$/);
  expect(res.body.accountInfo.accountType).toBe(s.accountType);
  const isBank = s.accountType.endsWith('_ACCOUNT');
  if (isBank) {
    expect(res.body.accountInfo.paymentRails.length).toBeGreaterThan(0);
    expect(res.body.beneficiaryVerifiedData.fullName).toBe(
      s.info('001').beneficiary === business ? 'Acme Trading Ltd' : 'Ada Lovelace',
    );
  }
  const got = await p.api.get(`/customers/external-accounts/${res.body.id}`);
  expect(got.body).toEqual(res.body);
});

it.each(SAMPLES.map((s) => [s.accountType, s] as const))(
  'refuses a %s that breaks its key identifier rule',
  async (type, s) => {
    const brk = KEY_RULE_BREAKS[type];
    const res = await p.api.post('/customers/external-accounts', {
      customerId,
      currency: s.currency,
      accountInfo: brk.change(s.info('009')),
    });
    expectError(res, 400, 'INVALID_INPUT');
    expect(fieldsOf(res)).toContain(brk.field);
  },
);

it.each(SAMPLES.map((s) => [s.accountType, s] as const))(
  'refuses a %s in a currency the variant does not carry',
  async (_type, s) => {
    const wrong =
      s.currency === 'USD' || s.accountType === 'SLV_ACCOUNT'
        ? 'EUR'
        : s.accountType.endsWith('_WALLET') || s.accountType === 'LIGHTNING'
          ? 'MXN'
          : s.accountType === 'SWIFT_ACCOUNT'
            ? 'USDC'
            : 'USD';
    const res = await p.api.post('/customers/external-accounts', {
      customerId,
      currency: wrong,
      accountInfo: s.info('008'),
    });
    expectError(res, 400, 'INVALID_INPUT');
    expect(fieldsOf(res)).toEqual(['currency']);
  },
);

it('reports the allowed currency as an enum constraint', async () => {
  const usd = SAMPLES.find((s) => s.accountType === 'USD_ACCOUNT')!;
  const res = await p.api.post('/customers/external-accounts', {
    customerId,
    currency: 'MXN',
    accountInfo: usd.info('010'),
  });
  expect(res.body.details.errors[0]).toMatchObject({
    field: 'currency',
    message: 'must be USD for USD_ACCOUNT',
    constraint: { enum: ['USD'] },
  });
});

it('lists every problem of a request at once, with dot-notation fields', async () => {
  const res = await p.api.post('/customers/external-accounts', {
    customerId,
    currency: 'EUR',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '',
      routingNumber: '12',
      bankAccountType: 'BROKERAGE',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'X', address: { line1: 'x', country: 'usa' } },
    },
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(fieldsOf(res).sort()).toEqual([
    'accountInfo.accountNumber',
    'accountInfo.bankAccountType',
    'accountInfo.beneficiary.address.country',
    'accountInfo.beneficiary.address.postalCode',
    'accountInfo.routingNumber',
    'currency',
  ]);
  const routing = res.body.details.errors.find((e: { field: string }) => e.field === 'accountInfo.routingNumber');
  expect(routing.constraint).toEqual({ minLength: 9 });
  const type = res.body.details.errors.find((e: { field: string }) => e.field === 'accountInfo.bankAccountType');
  expect(type.constraint).toEqual({ enum: ['CHECKING', 'SAVINGS'] });
});

it('reports a pattern constraint', async () => {
  const gbp = SAMPLES.find((s) => s.accountType === 'GBP_ACCOUNT')!;
  const res = await p.api.post('/customers/external-accounts', {
    customerId,
    currency: 'GBP',
    accountInfo: { ...gbp.info('011'), accountNumber: '1234567A' },
  });
  expect(res.body.details.errors[0]).toMatchObject({
    field: 'accountInfo.accountNumber',
    constraint: { pattern: '^[0-9]{8}$' },
  });
});

it('refuses an unknown accountType, naming the allowed ones', async () => {
  const res = await p.api.post('/customers/external-accounts', {
    customerId,
    currency: 'USD',
    accountInfo: { accountType: 'CHEQUE' },
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors[0].field).toBe('accountInfo.accountType');
  // The samples' types are the reference's (the first test checks it when the reference is present).
  expect([...res.body.details.errors[0].constraint.enum].sort()).toEqual(SAMPLES.map((s) => s.accountType).sort());
});
