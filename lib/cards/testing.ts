import { expect } from 'vitest';
import type { TestPlatform } from '@/tests/support/api';
import { advance, customerWithAccounts, type Holder } from '@/tests/support/money';
import { eventsOf } from '@/lib/events/outbox';
import { checkSchema } from '@/tests/support/conformance';

// Shared steps of the card tests: a KYC-approved cardholder, an issued and provisioned card,
// simulations that must be accepted, and the outbox's card webhooks checked against the reference.
export async function cardholder(p: TestPlatform, name = 'Carla Cardholder', currencies = ['USD']): Promise<Holder> {
  return customerWithAccounts(p, name, currencies);
}

/** Issues a card and lets the issuer provision it (the sandbox provisions at once, on the worker). */
export async function activeCard(p: TestPlatform, holder: Holder, extra: Record<string, unknown> = {}) {
  const res = await p.api.post('/cards', {
    cardholderId: holder.customerId,
    form: 'VIRTUAL',
    fundingSources: [holder.accounts.USD],
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.state).toBe('PROCESSING');
  await advance(p, 1);
  const card = await p.api.get(`/cards/${res.body.id}`);
  expect(card.body.state).toBe('ACTIVE');
  return card.body as { id: string; state: string; fundingSources: string[]; last4: string; currency: string };
}

export async function simulate(p: TestPlatform, cardId: string, op: string, body: unknown): Promise<string> {
  const res = await p.api.post(`/sandbox/cards/${cardId}/simulate/${op}`, body);
  expect(res.status, res.text).toBe(202);
  return res.body.issuerTransactionToken as string;
}

const SCHEMA_OF: Record<string, string> = {
  'CARD.STATE_CHANGE': 'CardStateChangeWebhook',
  'CARD.FUNDING_SOURCE_CHANGE': 'CardFundingSourceChangeWebhook',
};

/** Every card webhook the platform recorded, each checked against its reference schema. */
export async function cardWebhooks(platformId: string) {
  const events = (await eventsOf(platformId)).filter((e) => e.type.startsWith('CARD'));
  for (const e of events) checkSchema(SCHEMA_OF[e.type] ?? 'CardTransactionWebhook', e.body);
  return events.map((e) => e.body);
}
