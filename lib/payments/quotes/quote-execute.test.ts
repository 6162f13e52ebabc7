import { describe, expect, it } from 'vitest';
import { expectError, newPlatform } from '@/tests/support/api';
import { newWallet, otpLogin } from '@/lib/wallet-auth/testing/flows';
import { newClientKey, stamp } from '@/lib/wallet-auth/testing/client';

// End to end through the seam: a quote funded by an embedded wallet executes only with the
// wallet holder's stamp over the quote's payloadToSign (lib/wallet-auth/wallet-signature.ts).
describe('executing a quote from an embedded wallet', () => {
  it('needs Service-Wallet-Signature over the quote payloadToSign by an active session of the source wallet', async () => {
    const p = await newPlatform();
    const w = await newWallet(p);
    const { key } = await otpLogin(p.api, w.emailOtpId);
    const other = await newWallet(p);
    const otherKey = (await otpLogin(p.api, other.emailOtpId)).key;
    const c = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Payee', currencies: ['EUR'] });
    const eur = (await p.api.get('/customers/internal-accounts', { query: { customerId: c.body.id, currency: 'EUR' } }))
      .body.data[0];
    expect((await p.api.post(`/sandbox/internal-accounts/${w.accountId}/fund`, { amount: 100000 })).status).toBe(200);

    const quote = await p.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: w.accountId },
      destination: { destinationType: 'ACCOUNT', accountId: eur.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10000,
    });
    expect(quote.status, quote.text).toBe(201);
    const payload = quote.body.paymentInstructions[0].accountOrWalletInfo.payloadToSign as string;
    expect(typeof payload).toBe('string');
    const path = `/quotes/${quote.body.id}/execute`;
    expectError(await p.api.post(path), 401, 'WALLET_SIGNATURE_MISSING');
    // A blank header is a missing one (the header is read as every signed action reads it), named for the quote.
    const blank = await p.api.post(path, undefined, { headers: { 'Service-Wallet-Signature': '  ' } });
    expectError(blank, 401, 'WALLET_SIGNATURE_MISSING');
    expect(blank.body.message).toMatch(/quote is funded by an Embedded Wallet/);
    expectError(
      await p.api.post(path, undefined, { headers: { 'Service-Wallet-Signature': 'garbage' } }),
      401,
      'WALLET_SIGNATURE_MALFORMED',
    );
    expectError(
      await p.api.post(path, undefined, { headers: { 'Service-Wallet-Signature': stamp(payload + ' ', key) } }),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expectError(
      await p.api.post(path, undefined, { headers: { 'Service-Wallet-Signature': stamp(payload, otherKey) } }),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expectError(
      await p.api.post(path, undefined, { headers: { 'Service-Wallet-Signature': stamp(payload, newClientKey()) } }),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    const ok = await p.api.post(path, undefined, { headers: { 'Grid-Wallet-Signature': stamp(payload, key) } });
    expect(ok.status, ok.text).toBe(200);
    expect(['PROCESSING', 'COMPLETED']).toContain(ok.body.status);
    // The signature authorized one execution: the same stamp cannot execute again.
    expectError(
      await p.api.post(path, undefined, { headers: { 'Grid-Wallet-Signature': stamp(payload, key) } }),
      409,
      'CONFLICT',
    );
  });

  it('refuses immediatelyExecute for an embedded-wallet source (the holder must sign first)', async () => {
    const p = await newPlatform();
    const w = await newWallet(p);
    const c = await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Payee Two',
      currencies: ['EUR'],
    });
    const eur = (await p.api.get('/customers/internal-accounts', { query: { customerId: c.body.id, currency: 'EUR' } }))
      .body.data[0];
    expect((await p.api.post(`/sandbox/internal-accounts/${w.accountId}/fund`, { amount: 100000 })).status).toBe(200);
    const res = await p.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: w.accountId },
      destination: { destinationType: 'ACCOUNT', accountId: eur.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
      immediatelyExecute: true,
    });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors[0].field).toBe('immediatelyExecute');
  });
});
