import { requireReferenceFile } from '@/tests/support/reference';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { business, individual, KEY_RULE_BREAKS, SAMPLES } from './testing';

// Every accountType variant of the reference: one valid create each (the response is checked
// against the reference schema by the test client), and a field error for each key identifier rule.
const reference = YAML.parse(readFileSync(requireReferenceFile('openapi.yaml'), 'utf8'));
const createTypes = Object.keys(
  reference.components.schemas.ExternalAccountCreateInfoOneOf.discriminator.mapping,
) as string[];
const fieldsOf = (res: { body: { details?: { errors?: { field: string }[] } } }) =>
  (res.body.details?.errors ?? []).map((e) => e.field);

describe('external account variants', () => {
  let p: TestPlatform;
  let customerId: string;
  beforeAll(async () => {
    p = await newPlatform();
    const c = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Variant Owner', region: 'US' });
    customerId = c.body.id;
  });

  it('has a sample and a key-rule break for every accountType of the reference', () => {
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
    expect([...res.body.details.errors[0].constraint.enum].sort()).toEqual([...createTypes].sort());
  });

  describe('beneficiaries', () => {
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
  });

  describe('rails chosen by the given fields', () => {
    it('derives paymentRails from the complete field sets (INR UPI, BDT mobile money)', async () => {
      const upi = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'INR',
        accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'ada030@okhdfc', beneficiary: individual },
      });
      expect(upi.status, upi.text).toBe(201);
      expect(upi.body.accountInfo.paymentRails).toEqual(['UPI']);
      const rtgs = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'INR',
        accountInfo: {
          accountType: 'INR_ACCOUNT',
          accountNumber: '123456789031',
          ifsc: 'HDFC0001234',
          rail: 'RTGS',
          beneficiary: individual,
        },
      });
      expect(rtgs.body.accountInfo.paymentRails).toEqual(['RTGS']);
      const imps = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'INR',
        accountInfo: {
          accountType: 'INR_ACCOUNT',
          accountNumber: '123456789032',
          ifsc: 'HDFC0001234',
          rail: 'IMPS',
          beneficiary: individual,
        },
      });
      expect(imps.body.details.errors[0]).toMatchObject({
        field: 'accountInfo.rail',
        constraint: { enum: ['NEFT', 'RTGS'] },
      });
      const mm = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'BDT',
        accountInfo: {
          accountType: 'BDT_ACCOUNT',
          bankName: 'bKash',
          phoneNumber: '+8801712345033',
          beneficiary: individual,
        },
      });
      expect(mm.body.accountInfo.paymentRails).toEqual(['MOBILE_MONEY']);
      const cny = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'CNY',
        accountInfo: {
          accountType: 'CNY_ACCOUNT',
          bankName: 'AliPay',
          phoneNumber: '+8613812345034',
          beneficiary: individual,
        },
      });
      expect(cny.body.accountInfo.paymentRails).toEqual(['MOBILE_MONEY']);
    });

    it('requires exactly one Lightning destination and takes an IBAN-only SWIFT account', async () => {
      const two = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'BTC',
        accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'a@b.example', bolt12: 'lno1qcp4256ypq' },
      });
      expectError(two, 400, 'INVALID_INPUT');
      expect(two.body.message).toContain('exactly one of invoice, bolt12 or lightningAddress');
      const iban = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'GBP',
        accountInfo: {
          accountType: 'SWIFT_ACCOUNT',
          country: 'GB',
          swiftCode: 'BARCGB22',
          bankName: 'Barclays',
          iban: 'GB29NWBK60161331926035',
          beneficiary: individual,
        },
      });
      expect(iban.status, iban.text).toBe(201);
      expect(iban.body.accountInfo.paymentRails).toEqual(['SWIFT']);
    });
  });
});
