import { describe, expect, it } from 'vitest';
import { expectError, newPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { balanceOf, customerWithAccounts, externalAccount, fund } from '@/tests/support/money';

describe('quotes to external accounts the platform does not own', () => {
  it('refuses foreign and deleted ends, moving nothing', async () => {
    const p = await newPlatform();
    const other = await newPlatform();
    const alice = await customerWithAccounts(p, 'Alice Ends', ['USD']);
    await fund(p, alice.accounts.USD, 100_000);
    const ext = await externalAccount(p, alice.customerId, 'EUR', '0001');
    const body = (source: string, destination: string) => ({
      source: { sourceType: 'ACCOUNT', accountId: source },
      destination: { destinationType: 'ACCOUNT', accountId: destination },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    });
    // Another platform's external account, then a deleted one.
    const foreign = await externalAccount(other, null, 'EUR', '0001');
    // createQuote answers no 404 (reference): an unknown destination is invalid input naming the field.
    const foreignRes = await p.api.post('/quotes', body(alice.accounts.USD, foreign));
    expectError(foreignRes, 400, 'INVALID_INPUT');
    expect(foreignRes.body.details.errors[0].field).toBe('destination.accountId');
    const gone = await externalAccount(p, alice.customerId, 'EUR', '0011');
    expect((await p.api.delete(`/customers/external-accounts/${gone}`)).status).toBe(204);
    expectError(await p.api.post('/quotes', body(alice.accounts.USD, gone)), 400, 'INVALID_INPUT');
    // Another platform's source account.
    const res = await other.api.post('/quotes', body(alice.accounts.USD, foreign));
    expectError(res, 400, 'INVALID_INPUT');
    expect(JSON.stringify(res.body)).toContain('source.accountId');
    // The valid pair still quotes and executes.
    const q = await p.api.post('/quotes', body(alice.accounts.USD, ext));
    expect(q.status, q.text).toBe(201);
    expect((await p.api.post(`/quotes/${q.body.id}/execute`)).status).toBe(200);
    expect((await balanceOf(p, alice.accounts.USD)).available).toBe(100_000n - 1000n);
    await expectLedgerBalanced(p.platformId);
  });
});
