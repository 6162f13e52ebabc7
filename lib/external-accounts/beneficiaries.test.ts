import { beforeAll, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { individual, SAMPLES } from './testing';

const fieldsOf = (res: { body: { details?: { errors?: { field: string }[] } } }) =>
  (res.body.details?.errors ?? []).map((e) => e.field);

let p: TestPlatform;
let customerId: string;
beforeAll(async () => {
  p = await newPlatform();
  const c = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Variant Owner', region: 'US' });
  customerId = c.body.id;
});

// The beneficiary of a bank account: required on every bank variant, and validated field by field.
const usd = (beneficiary: unknown, sfx: string) => ({
  customerId,
  currency: 'USD',
  accountInfo: { ...SAMPLES.find((s) => s.accountType === 'USD_ACCOUNT')!.info(sfx), beneficiary },
});

it('requires a beneficiary on every bank variant, with fullName and address for an individual', async () => {
  const none = await p.api.post('/customers/external-accounts', usd(undefined, '020'));
  expect(fieldsOf(none)).toEqual(['accountInfo.beneficiary']);
  const bare = await p.api.post('/customers/external-accounts', usd({ beneficiaryType: 'INDIVIDUAL' }, '021'));
  expect(fieldsOf(bare).sort()).toEqual(['accountInfo.beneficiary.address', 'accountInfo.beneficiary.fullName']);
  const kind = await p.api.post(
    '/customers/external-accounts',
    usd({ beneficiaryType: 'TRUST', fullName: 'x' }, '022'),
  );
  expect(kind.body.details.errors[0]).toMatchObject({
    field: 'accountInfo.beneficiary.beneficiaryType',
    constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] },
  });
});

it('validates the individual fields: date, country codes, email, phone', async () => {
  const res = await p.api.post(
    '/customers/external-accounts',
    usd(
      {
        ...individual,
        birthDate: '1990-13-01',
        nationality: 'British',
        countryOfResidence: 'gb',
        email: 'nope',
        phoneNumber: '555',
      },
      '023',
    ),
  );
  expect(fieldsOf(res).sort()).toEqual([
    'accountInfo.beneficiary.birthDate',
    'accountInfo.beneficiary.countryOfResidence',
    'accountInfo.beneficiary.email',
    'accountInfo.beneficiary.nationality',
    'accountInfo.beneficiary.phoneNumber',
  ]);
  const ok = await p.api.post(
    '/customers/external-accounts',
    usd({ ...individual, birthDate: '1990-01-15', nationality: 'GB', email: 'ada@example.com' }, '024'),
  );
  expect(ok.status, ok.text).toBe(201);
  expect(ok.body.accountInfo.beneficiary).toMatchObject({
    birthDate: '1990-01-15',
    nationality: 'GB',
    email: 'ada@example.com',
  });
});

it('takes a business beneficiary, legalName required', async () => {
  expect(
    fieldsOf(await p.api.post('/customers/external-accounts', usd({ beneficiaryType: 'BUSINESS' }, '025'))),
  ).toEqual(['accountInfo.beneficiary.legalName']);
  const ok = await p.api.post(
    '/customers/external-accounts',
    usd({ beneficiaryType: 'BUSINESS', legalName: 'Acme Inc', taxId: '12-3456789' }, '026'),
  );
  expect(ok.status, ok.text).toBe(201);
  expect(ok.body.beneficiaryVerifiedData).toEqual({ fullName: 'Acme Inc' });
});

it('applies per-currency individual rules (EUR countryOfResidence, GTQ and JMD phone)', async () => {
  const { countryOfResidence: _c, phoneNumber: _p, ...plain } = individual;
  for (const [type, missing] of [
    ['EUR_ACCOUNT', ['countryOfResidence']],
    ['GTQ_ACCOUNT', ['countryOfResidence', 'phoneNumber']],
    ['JMD_ACCOUNT', ['phoneNumber']],
  ] as const) {
    const s = SAMPLES.find((x) => x.accountType === type)!;
    const res = await p.api.post('/customers/external-accounts', {
      customerId,
      currency: s.currency,
      accountInfo: { ...s.info('027'), beneficiary: plain },
    });
    expect(fieldsOf(res).sort(), type).toEqual(missing.map((f) => `accountInfo.beneficiary.${f}`));
  }
});
