import { beforeAll, describe, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { db } from '@/lib/core/db';
import { createAgent } from '@/lib/agents/testing';
import { activeCard, cardholder, simulate } from '@/lib/cards/testing';
import { namesOf } from './names';

// The console's names for ids: customers by their name, internal accounts by currency and owner,
// external accounts by beneficiary, bank and country, cards by brand, last four digits and
// cardholder, agents by name and customer, transactions by customer and reference — and nothing
// for another platform's ids.
let p: TestPlatform;
let other: TestPlatform;
let ada: Holder;
let ext: string;
let business: string;
let cardId: string;
let last4: string;
let agentId: string;

beforeAll(async () => {
  p = await newPlatform();
  other = await newPlatform();
  ada = await customerWithAccounts(p, 'Ada Lovelace', ['USD']);
  ext = await externalAccount(p, ada.customerId, 'USD', '777');
  const b = await p.api.post('/customers', {
    customerType: 'BUSINESS',
    businessInfo: {
      legalName: 'Hopper Imports LLC',
      registrationNumber: 'R-1',
      taxId: 'T-1',
      country: 'US',
      incorporatedOn: '2020-01-02',
    },
  });
  expect(b.status, b.text).toBe(201);
  business = b.body.id;
  const card = await p.api.post('/cards', {
    cardholderId: ada.customerId,
    form: 'VIRTUAL',
    fundingSources: [ada.accounts.USD],
  });
  expect(card.status, card.text).toBe(201);
  ({ id: cardId, last4 } = card.body);
  agentId = (await createAgent(p, ada.customerId)).agent.id;
});

describe('namesOf', () => {
  it('names customers, internal and external accounts, each linked to its customer', async () => {
    const names = await namesOf(p.platformId, [ada.customerId, ada.accounts.USD, ext, business, ada.customerId], db());
    const customerPage = `/console/customers/${encodeURIComponent(ada.customerId)}`;
    expect(names.get(ada.customerId)).toEqual({ id: ada.customerId, name: 'Ada Lovelace', href: customerPage });
    expect(names.get(ada.accounts.USD)).toEqual({
      id: ada.accounts.USD,
      name: 'USD account of Ada Lovelace',
      href: customerPage,
    });
    const payee = names.get(ext);
    expect(payee?.href).toBe(customerPage);
    expect(payee?.name).toBe('Pat Receiver (Test Bank, DE)');
    expect(names.get(business)?.name).toBe('Hopper Imports LLC');
  });

  it('names cards by brand and last four digits, agents by name, each with its customer', async () => {
    const names = await namesOf(p.platformId, [cardId, agentId], db());
    expect(names.get(cardId)).toEqual({
      id: cardId,
      name: `VISA •••• ${last4} of Ada Lovelace`,
      href: `/console/cards/${encodeURIComponent(cardId)}`,
    });
    expect(names.get(agentId)).toEqual({
      id: agentId,
      name: 'Test agent (agent of Ada Lovelace)',
      href: `/console/agents/${encodeURIComponent(agentId)}`,
    });
  });

  it('names a card transaction by its merchant and card, linked to its own page', async () => {
    const holder = await cardholder(p, 'Carl Purchases');
    await fund(p, holder.accounts.USD, 10_000);
    const card = await activeCard(p, holder);
    const merchant = { descriptor: 'BLUE BOTTLE COFFEE 42', mcc: '5814', country: 'US' };
    await simulate(p, card.id, 'authorization', { amount: 450, currency: { code: 'USD' }, merchant });
    const purchase = await db().cardTransaction.findFirst({ where: { cardId: card.id } });
    expect(purchase).not.toBeNull();
    const names = await namesOf(p.platformId, [purchase!.id], db());
    expect(names.get(purchase!.id)).toEqual({
      id: purchase!.id,
      name: `BLUE BOTTLE COFFEE 42 on VISA •••• ${card.last4} of Carl Purchases`,
      href: `/console/cards/${encodeURIComponent(card.id)}/transactions/${encodeURIComponent(purchase!.id)}`,
    });
    expect((await namesOf(other.platformId, [purchase!.id], db())).size).toBe(0);
  });

  it("resolves nothing for another platform's ids, unknown ids or an empty list", async () => {
    const names = await namesOf(
      other.platformId,
      [ada.customerId, ada.accounts.USD, ext, cardId, agentId, 'Customer:nope'],
      db(),
    );
    expect(names.size).toBe(0);
    expect((await namesOf(p.platformId, [], db())).size).toBe(0);
  });
});

describe('namesOf: transactions', () => {
  it("names a transaction by its customer and reference, linked to its own page; another platform's by nothing", async () => {
    await fund(p, ada.accounts.USD, 10_000);
    const out = await p.api.post('/transfer-out', {
      source: { accountId: ada.accounts.USD },
      destination: { accountId: ext },
      amount: 1500,
    });
    expect(out.status, out.text).toBe(201);
    const id: string = out.body.id;
    const row = await db().transaction.findUniqueOrThrow({ where: { id } });
    expect(row.reference).toBeTruthy();
    const names = await namesOf(p.platformId, [id], db());
    expect(names.get(id)).toEqual({
      id,
      name: `Ada Lovelace · ${row.reference}`,
      href: `/console/transactions/${encodeURIComponent(id)}`,
    });
    expect((await namesOf(other.platformId, [id], db())).size).toBe(0);
  });
});
