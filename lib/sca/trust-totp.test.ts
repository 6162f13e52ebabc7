import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { SAMPLES } from '@/lib/external-accounts/testing';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { enrollTotp, euCustomer, totpCode } from './testing';

// Beneficiary trust on the SCA module: a customer with an enrolled TOTP factor may confirm a trust
// change with the authenticator app's code instead of the SMS one.
const eur = SAMPLES.find((s) => s.accountType === 'EUR_ACCOUNT')!;

describe('beneficiary trust with TOTP', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform({ embeddedWallet: false });
  });

  it('offers TOTP when enrolled and accepts a real code from the app', async () => {
    const c = await euCustomer(p);
    const acct = await p.api.post('/customers/external-accounts', {
      customerId: c.id,
      currency: 'EUR',
      accountInfo: eur.info('301'),
    });
    expect(acct.status, acct.text).toBe(201);
    const path = (step: string) => `/customers/external-accounts/${acct.body.id}/${step}`;

    const plain = await p.api.post(path('trust'));
    expect(plain.body.scaChallenge.availableFactors).toEqual(['SMS_OTP']);
    const { secret } = await enrollTotp(p, c);
    const start = await p.api.post(path('trust'));
    expect(start.status, start.text).toBe(200);
    expect(start.body.scaChallenge).toMatchObject({ factor: 'SMS_OTP', availableFactors: ['SMS_OTP', 'TOTP'] });
    const challengeId = start.body.scaChallenge.id;

    expectError(await p.api.post(path('trust/confirm'), { challengeId, code: '000009' }), 400, 'INVALID_INPUT');
    const ok = await p.api.post(path('trust/confirm'), { challengeId, code: await totpCode(p, secret, 1) });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ trusted: true });
    // The SMS code of that challenge no longer works.
    const codes = await db().oneTimeCode.findMany({ where: { purpose: 'BENEFICIARY_TRUST', subject: acct.body.id } });
    expect(codes.filter((x) => x.state === 'ACTIVE')).toEqual([]);

    // The SMS code still works for a customer who has both.
    const untrust = await p.api.post(path('untrust'));
    const done = await p.api.post(path('untrust/confirm'), {
      challengeId: untrust.body.scaChallenge.id,
      code: '123456',
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ trusted: false });
  });
});
