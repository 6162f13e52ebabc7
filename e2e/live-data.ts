import { expect } from '@playwright/test';
import { apiOk, BASE, invoiceAgent, mxnBankAccount, unique, walletCustomer, type Json } from './support';

// Data the console's live specs (and the approvals spec) make through the API: an agent's calls
// with its own token, a funded account, held agent actions, a described payment, a card purchase.

/** A call of the agent API as the agent (Bearer token); fails the test unless it succeeds. */
export const agentCall = async (token: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${BASE}/api/2025-10-13${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Json;
  expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
  return json;
};

/** The access token an agent's device code redeems for. */
export async function agentToken(code: string) {
  const redeemed = await fetch(`${BASE}/api/2025-10-13/agents/device-codes/${code}/redeem`, { method: 'POST' });
  return ((await redeemed.json()) as Json).accessToken as string;
}

export async function fundedUsd(customerId: string, amount: number) {
  const accounts = await apiOk('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`);
  const usd = (accounts.data as Json[]).find((a) => a.type === 'INTERNAL_FIAT' && a.balance.currency.code === 'USD');
  await apiOk('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount });
  return usd.id as string;
}

/** An individual customer with a USD account funded with `amount` (minor units). */
async function customerWithUsd(fullName: string, amount: number) {
  const customer = await apiOk('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: unique('live'),
    fullName,
    currencies: ['USD'],
  });
  return { customer, usd: await fundedUsd(customer.id, amount) };
}

/**
 * A customer with a funded USD account, an agent of theirs whose every transfer waits for
 * approval (its token), and a function that has it hold a transfer to Pat Receiver's bank.
 */
export async function approvalAgent(fullName = 'Ada Lovelace') {
  const { customer, usd } = await customerWithUsd(fullName, 100_000);
  const ext = await apiOk('POST', '/customers/external-accounts', {
    customerId: customer.id,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '400000000654',
      routingNumber: '021000021',
      bankAccountType: 'CHECKING',
      bankName: 'Test Bank',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Pat Receiver',
        countryOfResidence: 'DE',
        address: { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
      },
    },
  });
  const { code } = await invoiceAgent(customer.id, 'APPROVAL_REQUIRED');
  const token = await agentToken(code);
  const hold = async (amount: number) => {
    const held = await agentCall(token, 'POST', '/agents/me/transfer-out', {
      source: { accountId: usd },
      destination: { accountId: ext.id },
      amount,
    });
    expect(held.status).toBe('PENDING_APPROVAL');
    return held;
  };
  return { customer, usd, token, hold };
}

/** A payment out to Mexico with a description, from a funded USD account. */
export async function describedPayment(description = 'Rent for March') {
  const tina = await walletCustomer('Tina Transfer');
  const fiat = await fundedUsd(tina.id, 50_000);
  const bank = await mxnBankAccount(tina.id);
  const quote = await apiOk(
    'POST',
    '/quotes',
    {
      source: { sourceType: 'ACCOUNT', accountId: fiat },
      destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
      description,
    },
    { 'idempotency-key': crypto.randomUUID() },
  );
  await apiOk('POST', `/quotes/${quote.id}/execute`, undefined, { 'idempotency-key': crypto.randomUUID() });
  return quote.transactionId as string;
}

/** An active card of a funded cardholder with one purchase authorized on it. */
export async function cardWithPurchase(fullName = 'Linus Cardholder') {
  const { customer: holder, usd } = await customerWithUsd(fullName, 50_000);
  const card = await apiOk('POST', '/cards', {
    cardholderId: holder.id,
    platformCardId: unique('card'),
    form: 'VIRTUAL',
    fundingSources: [usd],
    maxSpendPerTransaction: 20_000,
  });
  await expect.poll(async () => (await apiOk('GET', `/cards/${card.id}`)).state, { timeout: 20_000 }).toBe('ACTIVE');
  await apiOk('POST', `/sandbox/cards/${encodeURIComponent(card.id)}/simulate/authorization`, {
    amount: 1250,
    currency: { code: 'USD' },
    merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
  });
  return { holder, card };
}
