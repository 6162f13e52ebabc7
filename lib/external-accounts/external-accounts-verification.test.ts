import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { individual, sample, usdInfo } from './testing';

let p: TestPlatform;
let customerId: string;
const newCustomer = async (extra: Record<string, unknown> = {}) =>
  (await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Owner Person', region: 'US', ...extra }))
    .body.id as string;
const createUsd = (sfx: string, body: Record<string, unknown> = {}) =>
  p.api.post('/customers/external-accounts', { customerId, currency: 'USD', accountInfo: usdInfo(sfx), ...body });

beforeAll(async () => {
  p = await newPlatform();
  customerId = await newCustomer();
});

describe('sandbox beneficiary verification by the identifier suffix', () => {
  it.each([
    ['102', 'NOT_MATCHED', undefined],
    ['103', 'PARTIAL_MATCH', 'A. Lovelace'],
    ['104', 'PENDING', undefined],
    ['106', 'UNSUPPORTED', undefined],
    ['107', 'CHECKED_BY_RECEIVING_FI', undefined],
    ['101', 'MATCHED', 'Ada Lovelace'],
    ['000', 'MATCHED', 'Ada Lovelace'],
  ])('account number ending %s → %s', async (sfx, status, verifiedName) => {
    const res = await createUsd(sfx);
    expect(res.status, res.text).toBe(201);
    expect(res.body.beneficiaryVerificationStatus).toBe(status);
    expect(res.body.beneficiaryVerifiedData?.fullName).toBe(verifiedName);
    expect(res.body.status).toBe('ACTIVE');
  });

  it('105 is an invalid account: 400 INVALID_BANK_ACCOUNT and nothing is written', async () => {
    const before = (await p.api.get('/customers/external-accounts', { query: { customerId } })).body.totalCount;
    expectError(await createUsd('105'), 400, 'INVALID_BANK_ACCOUNT');
    const wallet = await p.api.post('/customers/external-accounts', {
      customerId,
      currency: 'USDC',
      accountInfo: sample('BASE_WALLET').info('105'),
    });
    expectError(wallet, 400, 'INVALID_BANK_ACCOUNT');
    expect((await p.api.get('/customers/external-accounts', { query: { customerId } })).body.totalCount).toBe(before);
  });

  it('reads other primary identifiers: IBAN, CLABE, phone, wallet address', async () => {
    const cases: [string, string, string][] = [
      ['EUR_ACCOUNT', '102', 'NOT_MATCHED'],
      ['MXN_ACCOUNT', '103', 'PARTIAL_MATCH'],
      ['KES_ACCOUNT', '104', 'PENDING'],
      ['SOLANA_WALLET', '106', 'UNSUPPORTED'],
      ['TRON_WALLET', '107', 'CHECKED_BY_RECEIVING_FI'],
    ];
    for (const [type, sfx, status] of cases) {
      const s = sample(type);
      const res = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: s.currency,
        accountInfo: s.info(sfx),
      });
      expect(res.status, `${type} ${res.text}`).toBe(201);
      expect(res.body.beneficiaryVerificationStatus, type).toBe(status);
    }
  });

  it('for identifiers with a domain part, reads the digits at the end of the user part', async () => {
    const ln = await p.api.post('/customers/external-accounts', {
      customerId,
      currency: 'BTC',
      accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'ada102@wallet.example.com' },
    });
    expect(ln.body.beneficiaryVerificationStatus).toBe('NOT_MATCHED');
    const upi = await p.api.post('/customers/external-accounts', {
      customerId,
      currency: 'INR',
      accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'ada103@okhdfc', beneficiary: individual },
    });
    expect(upi.body.beneficiaryVerificationStatus).toBe('PARTIAL_MATCH');
    expectError(
      await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'BTC',
        accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'ada105@wallet.example.com' },
      }),
      400,
      'INVALID_BANK_ACCOUNT',
    );
  });
});
