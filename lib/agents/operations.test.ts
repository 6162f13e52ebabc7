import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { balanceOf, customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { connectedAgent, policy, type TestAgent } from './testing';

const usBank = (n: string) => ({
  currency: 'USD',
  accountInfo: {
    accountType: 'USD_ACCOUNT',
    accountNumber: `1234567${n}`,
    routingNumber: '021000021',
    bankAccountType: 'CHECKING',
    bankName: 'Test Bank',
    beneficiary: {
      beneficiaryType: 'INDIVIDUAL',
      fullName: 'Ann Agent',
      countryOfResidence: 'US',
      address: { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
    },
  },
});

// /agents/me operations: the same services as the platform's routes, scoped to the agent's
// customer, behind the agent's permissions.
let p: TestPlatform;
let ann: Holder; // the agent's customer
let bob: Holder; // another customer of the same platform
let agent: TestAgent;
let annExt: string;
let bobExt: string;
beforeAll(async () => {
  p = await newPlatform();
  ann = await customerWithAccounts(p, 'Ann Agent', ['USD', 'EUR']);
  bob = await customerWithAccounts(p, 'Bob Other', ['USD', 'EUR']);
  await fund(p, ann.accounts.USD, 1_000_000);
  await fund(p, bob.accounts.USD, 1_000_000);
  annExt = await externalAccount(p, ann.customerId, 'USD', '321');
  bobExt = await externalAccount(p, bob.customerId, 'USD', '321');
  agent = await connectedAgent(p, ann.customerId);
});
afterEach(async () => expectLedgerBalanced(p.platformId));

const quoteBody = (source: string, destination: string, amount = 5000) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
});

it('quote: created for its own accounts, executed in AUTO at once (money leaves), read back', async () => {
  const before = await balanceOf(p, ann.accounts.USD);
  const q = await agent.api.post('/agents/me/quotes', quoteBody(ann.accounts.USD, ann.accounts.EUR));
  expect(q.status, q.text).toBe(201);
  expect((await agent.api.get(`/agents/me/quotes/${q.body.id}`)).body.id).toBe(q.body.id);
  const ex = await agent.api.post(`/agents/me/quotes/${q.body.id}/execute`);
  expect(ex.status, ex.text).toBe(200);
  expect(ex.body).toMatchObject({
    status: 'APPROVED',
    type: 'EXECUTE_QUOTE',
    agentId: agent.id,
    customerId: ann.customerId,
    quote: { id: q.body.id },
    transaction: { id: q.body.transactionId, status: 'PROCESSING' },
  });
  const total = BigInt(q.body.totalSendingAmount);
  expect((await balanceOf(p, ann.accounts.USD)).available).toBe(before.available - total);
  // A second execution: the quote is no longer pending.
  expectError(await agent.api.post(`/agents/me/quotes/${q.body.id}/execute`), 409, 'CONFLICT');
  const actions = await agent.api.get('/agents/me/actions');
  expect(actions.body.data.map((a: { id: string }) => a.id)).toContain(ex.body.id);
  expect((await agent.api.get(`/agents/me/actions/${ex.body.id}`)).body.status).toBe('APPROVED');
  const txs = await agent.api.get('/agents/me/transactions');
  expect(txs.body.data.map((t: { id: string }) => t.id)).toContain(q.body.transactionId);
  expect(txs.body.data.every((t: { customerId: string }) => t.customerId === ann.customerId)).toBe(true);
  expect((await agent.api.get(`/agents/me/transactions/${q.body.transactionId}`)).body.agentId).toBe(agent.id);
});

it('transfer-in and transfer-out run the platform transfer and answer the action', async () => {
  const out = await agent.api.post('/agents/me/transfer-out', {
    source: { accountId: ann.accounts.USD },
    destination: { accountId: annExt },
    amount: 2500,
  });
  expect(out.status, out.text).toBe(201);
  expect(out.body).toMatchObject({
    status: 'APPROVED',
    type: 'TRANSFER_OUT',
    transferDetails: {
      amount: 2500,
      currency: 'USD',
      sourceAccountId: ann.accounts.USD,
      destinationAccountId: annExt,
    },
    transaction: { status: 'PROCESSING', type: 'OUTGOING' },
  });
  const inn = await agent.api.post('/agents/me/transfer-in', {
    source: { accountId: annExt },
    destination: { accountId: ann.accounts.USD },
    amount: 700,
  });
  expect(inn.status, inn.text).toBe(201);
  expect(inn.body).toMatchObject({ status: 'APPROVED', type: 'TRANSFER_IN', transaction: { type: 'INCOMING' } });
});

it("keeps an agent's Idempotency-Keys apart from the platform's: the same key is a new request, replayed only to the agent", async () => {
  const key = `shared-${Date.now()}`;
  const headers = { 'idempotency-key': key };
  const platformOut = await p.api.post(
    '/transfer-out',
    { source: { accountId: bob.accounts.USD }, destination: { accountId: bobExt }, amount: 300 },
    { headers },
  );
  expect(platformOut.status, platformOut.text).toBe(201);
  const body = { source: { accountId: ann.accounts.USD }, destination: { accountId: annExt }, amount: 400 };
  const first = await agent.api.post('/agents/me/transfer-out', body, { headers });
  expect(first.status, first.text).toBe(201);
  const again = await agent.api.post('/agents/me/transfer-out', body, { headers });
  expect(again.status, again.text).toBe(201);
  expect(again.body.id).toBe(first.body.id);
  expect(first.body.transferDetails).toMatchObject({ amount: 400, sourceAccountId: ann.accounts.USD });
});

it('internal and external accounts: listed, added, read and deleted for its own customer only', async () => {
  const internal = await agent.api.get('/agents/me/internal-accounts');
  expect(internal.status, internal.text).toBe(200);
  const ids = internal.body.data.map((a: { id: string }) => a.id);
  expect(ids).toEqual(expect.arrayContaining([ann.accounts.USD, ann.accounts.EUR]));
  expect(ids).not.toContain(bob.accounts.USD);
  const added = await agent.api.post('/agents/me/external-accounts', usBank('01'));
  expect(added.status, added.text).toBe(201);
  expect(added.body.customerId).toBe(ann.customerId);
  expectError(await agent.api.post('/agents/me/external-accounts', usBank('01')), 409, 'CONFLICT');
  const list = await agent.api.get('/agents/me/external-accounts');
  const listed = list.body.data.map((a: { id: string }) => a.id);
  expect(listed).toContain(added.body.id);
  expect(listed).not.toContain(bobExt);
  expect((await agent.api.get(`/agents/me/external-accounts/${added.body.id}`)).body.id).toBe(added.body.id);
  expect((await agent.api.delete(`/agents/me/external-accounts/${added.body.id}`)).status).toBe(204);
  expectError(await agent.api.get(`/agents/me/external-accounts/${added.body.id}`), 404, 'REFERENCE_NOT_FOUND');
});

it("another customer's accounts and objects: refused in bodies, not found by id", async () => {
  const api = agent.api;
  const otherQuote = await p.api.post('/quotes', quoteBody(bob.accounts.USD, bob.accounts.EUR));
  const otherTx = otherQuote.body.transactionId;
  const bobAgent = await connectedAgent(p, bob.customerId);
  const bobAction = await bobAgent.api.post('/agents/me/transfer-out', {
    source: { accountId: bob.accounts.USD },
    destination: { accountId: bobExt },
    amount: 100,
  });
  expect(bobAction.status, bobAction.text).toBe(201);
  const out = (source: string, destination: string) =>
    api.post('/agents/me/transfer-out', {
      source: { accountId: source },
      destination: { accountId: destination },
      amount: 100,
    });
  const inn = (source: string, destination: string) =>
    api.post('/agents/me/transfer-in', {
      source: { accountId: source },
      destination: { accountId: destination },
      amount: 100,
    });
  expectError(await out(bob.accounts.USD, annExt), 404, 'REFERENCE_NOT_FOUND');
  expectError(await out(ann.accounts.USD, bobExt), 404, 'REFERENCE_NOT_FOUND');
  expectError(await inn(bobExt, ann.accounts.USD), 404, 'REFERENCE_NOT_FOUND');
  expectError(await inn(annExt, bob.accounts.USD), 404, 'REFERENCE_NOT_FOUND');
  expectError(await api.post('/agents/me/quotes', quoteBody(bob.accounts.USD, ann.accounts.EUR)), 400, 'INVALID_INPUT');
  expectError(await api.post('/agents/me/quotes', quoteBody(ann.accounts.USD, bob.accounts.EUR)), 400, 'INVALID_INPUT');
  expectError(await api.get(`/agents/me/quotes/${otherQuote.body.id}`), 404, 'QUOTE_NOT_FOUND');
  expectError(await api.post(`/agents/me/quotes/${otherQuote.body.id}/execute`), 404, 'QUOTE_NOT_FOUND');
  expectError(await api.get(`/agents/me/transactions/${otherTx}`), 404, 'TRANSACTION_NOT_FOUND');
  expectError(await api.get(`/agents/me/actions/${bobAction.body.id}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(await api.get(`/agents/me/external-accounts/${bobExt}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(await api.delete(`/agents/me/external-accounts/${bobExt}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(
    await api.post('/agents/me/external-accounts', { ...usBank('02'), customerId: bob.customerId }),
    400,
    'INVALID_INPUT',
  );
  // Nothing of Bob's moved or changed.
  expect((await p.api.get(`/quotes/${otherQuote.body.id}`)).body.status).toBe('PENDING');
  expect((await p.api.get(`/customers/external-accounts/${bobExt}`)).status).toBe(200);
});

it('every permission is refused when absent (403)', async () => {
  const none = await connectedAgent(p, ann.customerId, policy({ permissions: [] }));
  const q = await agent.api.post('/agents/me/quotes', quoteBody(ann.accounts.USD, ann.accounts.EUR));
  const checks: [string, () => Promise<{ status: number; body: { code: string } }>][] = [
    ['VIEW_TRANSACTIONS', () => none.api.get('/agents/me/transactions')],
    ['VIEW_TRANSACTIONS', () => none.api.get(`/agents/me/transactions/${q.body.transactionId}`)],
    ['VIEW_TRANSACTIONS', () => none.api.get('/agents/me/internal-accounts')],
    ['CREATE_QUOTES', () => none.api.post('/agents/me/quotes', quoteBody(ann.accounts.USD, ann.accounts.EUR))],
    ['CREATE_QUOTES', () => none.api.get(`/agents/me/quotes/${q.body.id}`)],
    ['EXECUTE_QUOTES', () => none.api.post(`/agents/me/quotes/${q.body.id}/execute`)],
    [
      'CREATE_TRANSFERS',
      () =>
        none.api.post('/agents/me/transfer-out', {
          source: { accountId: ann.accounts.USD },
          destination: { accountId: annExt },
          amount: 1,
        }),
    ],
    [
      'CREATE_TRANSFERS',
      () =>
        none.api.post('/agents/me/transfer-in', {
          source: { accountId: annExt },
          destination: { accountId: ann.accounts.USD },
          amount: 1,
        }),
    ],
    ['MANAGE_EXTERNAL_ACCOUNTS', () => none.api.get('/agents/me/external-accounts')],
    ['MANAGE_EXTERNAL_ACCOUNTS', () => none.api.post('/agents/me/external-accounts', usBank('03'))],
    ['MANAGE_EXTERNAL_ACCOUNTS', () => none.api.get(`/agents/me/external-accounts/${annExt}`)],
    ['MANAGE_EXTERNAL_ACCOUNTS', () => none.api.delete(`/agents/me/external-accounts/${annExt}`)],
  ];
  for (const [permission, call] of checks) {
    const res = await call();
    expect(res.status, `${permission}: ${JSON.stringify(res.body)}`).toBe(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'PERMISSION_DENIED' } });
  }
  // Its own profile and actions need no permission.
  expect((await none.api.get('/agents/me')).status).toBe(200);
  expect((await none.api.get('/agents/me/actions')).status).toBe(200);
  expect((await p.api.get(`/customers/external-accounts/${annExt}`)).status).toBe(200);
});

it('accounts outside accountRestrictions are refused; per-account rules override the policy', async () => {
  const restricted = await connectedAgent(
    p,
    ann.customerId,
    policy({
      accountRestrictions: {
        allowedAccountIds: [ann.accounts.EUR],
        accountRules: [{ accountId: ann.accounts.EUR, perTransactionLimit: 10 }],
      },
    }),
  );
  const res = await restricted.api.post('/agents/me/transfer-out', {
    source: { accountId: ann.accounts.USD },
    destination: { accountId: annExt },
    amount: 100,
  });
  expectError(res, 403, 'FORBIDDEN');
  expect(res.body.details.reason).toBe('ACCOUNT_NOT_ALLOWED');
  const q = await restricted.api.post('/agents/me/quotes', quoteBody(ann.accounts.USD, ann.accounts.EUR));
  expectError(q, 403, 'FORBIDDEN');
  const eurQuote = await restricted.api.post('/agents/me/quotes', quoteBody(ann.accounts.EUR, ann.accounts.USD, 11));
  expect(eurQuote.status, eurQuote.text).toBe(201);
  // 11 EUR cents (plus fees) is above that account's own limit of 10.
  const ex = await restricted.api.post(`/agents/me/quotes/${eurQuote.body.id}/execute`);
  expectError(ex, 403, 'FORBIDDEN');
  expect(ex.body.details.reason).toBe('PER_TRANSACTION_LIMIT_EXCEEDED');
});
