import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { deliverDueWebhooks } from '@/lib/webhooks/service';
import { connectedAgent, policy } from '@/lib/agents/testing';
import { file, person, runUntilDone, upload } from '@/lib/bulk-import/testing';
import { activeCard, cardholder, simulate } from '@/lib/cards/testing';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { checkWebhook, referenceDocument } from '@/tests/support/conformance';
import { noteCheckNotMade } from '@/tests/support/needs-reference';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { receiverFor, type Receiver } from '@/tests/support/webhook-receiver';

// Every webhook kind of the reference (its `webhooks` section: 13 of them), each caused by a real
// request, delivered by the worker's delivery step to a receiver on loopback, signed with the key
// GET /config shows, and matching the reference's schema for its kind.
const KIND_OF: [prefix: string, kind: string][] = [
  ['TEST', 'test-webhook'],
  ['OUTGOING_PAYMENT.', 'outgoing-payment'],
  ['INCOMING_PAYMENT.', 'incoming-payment'],
  ['CUSTOMER.', 'customer-update'],
  ['VERIFICATION.', 'verification-update'],
  ['EXTERNAL_ACCOUNT.', 'external-account-status'],
  ['INTERNAL_ACCOUNT.', 'internal-account-status'],
  ['INVITATION.', 'invitation-claimed'],
  ['BULK_UPLOAD.', 'bulk-upload'],
  ['AGENT_ACTION.', 'agent-action'],
  ['CARD.STATE_CHANGE', 'card-state-change'],
  ['CARD.FUNDING_SOURCE_CHANGE', 'card-funding-source-change'],
  ['CARD_TRANSACTION.', 'card-transaction'],
];
const kindOf = (type: string) => KIND_OF.find(([prefix]) => type.startsWith(prefix))?.[1];
const tag = () => randomBytes(4).toString('hex');
const DOMAIN = 'sandbox.uma.money';

let p: TestPlatform;
let rx: Receiver;
let h: Holder;
beforeAll(async () => {
  process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1'; // the receiver listens on loopback
  p = await newPlatform();
  ({ rx } = await receiverFor(p)); // setting the endpoint sends the test webhook
  h = await customerWithAccounts(p, 'Wendy Webhooks', ['USD']); // CUSTOMER.KYC_*
  await fund(p, h.accounts.USD, 1_000_000); // INTERNAL_ACCOUNT.BALANCE_UPDATED
});
afterAll(async () => {
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
  await rx.close();
});

/** Money both ways, an external account deleted, a verification with errors to resolve. */
async function payments() {
  const ext = await externalAccount(p, h.customerId, 'USD', '4242');
  const out = await p.api.post('/transfer-out', {
    source: { accountId: h.accounts.USD },
    destination: { accountId: ext },
    amount: 1500,
  });
  expect(out.status, out.text).toBe(201);
  const incoming = await p.api.post('/sandbox/uma/receive', {
    senderUmaAddress: `$success.usd@${DOMAIN}`,
    customerId: h.customerId,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: 2500,
  });
  expect(incoming.status, incoming.text).toBe(200);
  const other = await externalAccount(p, h.customerId, 'USD', '4343');
  expect((await p.api.delete(`/customers/external-accounts/${other}`)).status).toBe(204);
  // A sandbox name ending in 003 starts UNVERIFIED: submitted without documents, it has errors.
  const unverified = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Vera Verify 003' });
  expect(unverified.status, unverified.text).toBe(201);
  const submitted = await p.api.post('/verifications', { customerId: unverified.body.id });
  expect(submitted.status, submitted.text).toBe(200);
  return ext;
}

/** An invitation of this platform's customer claimed by another platform's customer. */
async function invitation() {
  const inviter = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Ivy Inviter',
    umaAddress: `$ivy.${tag()}@${DOMAIN}`,
  });
  expect(inviter.status, inviter.text).toBe(201);
  const inv = await p.api.post('/invitations', { inviterUma: inviter.body.umaAddress });
  expect(inv.status, inv.text).toBe(201);
  const q = await newPlatform();
  const invitee = await q.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Ian Invitee',
    umaAddress: `$ian.${tag()}@${DOMAIN}`,
  });
  expect(invitee.status, invitee.text).toBe(201);
  const claimed = await q.api.post(`/invitations/${inv.body.code}/claim`, { inviteeUma: invitee.body.umaAddress });
  expect(claimed.status, claimed.text).toBe(200);
}

async function bulkUpload() {
  const id = tag();
  const res = await upload(
    p.api,
    file(
      'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,email',
      person(`bulk${id}`),
    ),
  );
  expect(res.status, res.text).toBe(202);
  expect((await runUntilDone(p, res.body.jobId)).status).toBe('COMPLETED');
}

/** An agent whose transfer waits for the platform's approval. */
async function agentAction(ext: string) {
  const agent = await connectedAgent(p, h.customerId, policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
  const held = await agent.api.post('/agents/me/transfer-out', {
    source: { accountId: h.accounts.USD },
    destination: { accountId: ext },
    amount: 700,
  });
  expect(held.status, held.text).toBe(201);
  expect(held.body.status).toBe('PENDING_APPROVAL');
}

/** A card frozen, its funding sources changed, and a purchase authorised. */
async function cards() {
  const holder = await cardholder(p, 'Carl Card');
  await fund(p, holder.accounts.USD, 100_000);
  const card = await activeCard(p, holder);
  expect((await p.api.patch(`/cards/${card.id}`, { state: 'FROZEN' })).status).toBe(200);
  expect((await p.api.patch(`/cards/${card.id}`, { state: 'ACTIVE' })).status).toBe(200);
  const second = await db().$transaction(async (tx) => {
    const { openCustomerAccounts } = await import('@/lib/accounts/service');
    return openCustomerAccounts(p.platformId, holder.customerId, ['USD'], null, tx);
  });
  const changed = await p.api.patch(`/cards/${card.id}`, { fundingSources: [second[0].id, holder.accounts.USD] });
  expect(changed.status, changed.text).toBe(200);
  await simulate(p, card.id, 'authorization', {
    amount: 1200,
    currency: { code: 'USD' },
    merchant: { descriptor: 'CORNER STORE', mcc: '5411', country: 'US' },
  });
}

it('delivers every webhook kind of the reference, signed and matching its schema', async () => {
  const ext = await payments();
  await invitation();
  await bulkUpload();
  await agentAction(ext);
  await cards();
  for (let round = 0; round < 5; round++) await deliverDueWebhooks({ platformId: p.platformId });

  const delivered = new Map<string, number>();
  for (const r of rx.received) {
    expect(r.signatureValid, `${r.json.type} signed with the platform's key`).toBe(true);
    const kind = kindOf(r.json.type);
    expect(kind, `${r.json.type} belongs to a webhook kind`).toBeDefined();
    checkWebhook(kind!, r.json); // throws on a mismatch; without the reference, noted as not made
    delivered.set(kind!, (delivered.get(kind!) ?? 0) + 1);
  }
  expect([...delivered.keys()].sort()).toEqual(KIND_OF.map(([, kind]) => kind).sort());
  const reference = referenceDocument();
  if (reference) expect(Object.keys(reference.webhooks as object).sort()).toEqual([...delivered.keys()].sort());
  else noteCheckNotMade('openapi.yaml', "the reference's list of webhook kinds");
});
