import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { customerWithAccounts, externalAccount, type Holder } from '@/tests/support/money';
import { ORIGIN, authentication, enrollPasskey } from './testing';
import type { Passkey } from '@/lib/wallet-auth/testing/passkey';

// A quote's per-transaction challenge by PASSKEY (scaFactor PASSKEY, customer with an enrolled
// passkey): the WebAuthn challenge is linked to the quote, so an assertion for one quote does not
// authorize another; a passkey challenge has no code to re-send.
describe('quote authorization by passkey', () => {
  let p: TestPlatform;
  let eu: Holder;
  let dest: string;
  let pk: Passkey;
  beforeAll(async () => {
    p = await newPlatform();
    eu = await customerWithAccounts(p, 'Paula Passkey', ['EUR', 'USD'], {
      region: 'DE',
      phoneNumber: '+4915100001111',
    });
    dest = await externalAccount(p, eu.customerId, 'MXN', '135');
    pk = (await enrollPasskey(p, { id: eu.customerId, phoneNumber: '', email: '', q: { customerId: eu.customerId } }))
      .pk;
  });

  const quote = async () => {
    const q = await p.api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: eu.customerId },
      destination: { destinationType: 'ACCOUNT', accountId: dest },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5000,
      scaFactor: 'PASSKEY',
    });
    expect(q.status, q.text).toBe(202);
    return q.body;
  };

  it('authorizes with an assertion over the quote-linked challenge', async () => {
    const a = await quote();
    expect(a.status).toBe('PENDING_AUTHORIZATION');
    expect(a.paymentInstructions).toBeUndefined();
    expect(a.scaChallenge).toMatchObject({ factor: 'PASSKEY', availableFactors: ['PASSKEY'] });
    const challenge = a.scaChallenge.passkeyAssertionOptions.challenge;
    expect(challenge).toEqual(expect.any(String));
    expectError(await p.api.post(`/quotes/${a.id}/authorize/resend`), 409, 'CONFLICT');
    expectError(await p.api.post(`/quotes/${a.id}/authorize`, { code: '123456' }), 400, 'INVALID_INPUT');
    expectError(
      await p.api.post(`/quotes/${a.id}/authorize`, {
        passkeyAssertion: authentication(pk, challenge),
        origin: 'https://evil.example',
      }),
      400,
      'INVALID_INPUT',
    );
    // Dynamic linking: an assertion for quote a does not authorize quote b.
    const b = await quote();
    expect(b.scaChallenge.passkeyAssertionOptions.challenge).not.toBe(challenge);
    expectError(
      await p.api.post(`/quotes/${b.id}/authorize`, {
        passkeyAssertion: authentication(pk, challenge),
        origin: ORIGIN,
      }),
      400,
      'INVALID_INPUT',
    );

    const ok = await p.api.post(`/quotes/${a.id}/authorize`, {
      passkeyAssertion: authentication(pk, challenge),
      origin: ORIGIN,
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status).toBe('PENDING');
    expect(ok.body.scaChallenge).toBeUndefined();
    expect(ok.body.paymentInstructions[0].accountOrWalletInfo.accountType).toBe('EUR_ACCOUNT');
    expectError(
      await p.api.post(`/quotes/${a.id}/authorize`, {
        passkeyAssertion: authentication(pk, challenge),
        origin: ORIGIN,
      }),
      409,
      'CONFLICT',
    );
    await expectLedgerBalanced(p.platformId);
  });
});
