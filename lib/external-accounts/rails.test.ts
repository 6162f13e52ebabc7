import { beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { individual } from './testing';

let p: TestPlatform;
let customerId: string;
beforeAll(async () => {
  p = await newPlatform();
  const c = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Variant Owner', region: 'US' });
  customerId = c.body.id;
});

// The rails an account can take follow from which of its variant's fields are given.
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
