import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { balanceOf, customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { callTool, expectToolError, mcpPost, toolCall, toolJson, type ToolResult } from '@/tests/support/mcp';
import { db } from '@/lib/core/db';
import { connectedAgent, type TestAgent } from './testing';

// MCP tools that move money or create something are exactly-once, through the same
// Idempotency-Key machinery as the REST operations: an idempotencyKey argument, or else the
// JSON-RPC request id (per agent and per tool), names the call.

const transfers = (marker: string) => db().transaction.count({ where: { remittanceInformation: marker } });

let p: TestPlatform;
let h: Holder;
let ext: string;
let a: TestAgent;
beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Ike Dempotent', ['USD', 'EUR']);
  await fund(p, h.accounts.USD, 10_000_000);
  ext = await externalAccount(p, h.customerId, 'USD', '777');
  a = await connectedAgent(p, h.customerId);
});
afterEach(async () => expectLedgerBalanced(p.platformId));

const out = (marker: string, amount = 100, extra: Record<string, unknown> = {}) => ({
  source: { accountId: h.accounts.USD },
  destination: { accountId: ext },
  amount,
  remittanceInformation: marker,
  ...extra,
});

const expectAction = (r: ToolResult) => {
  expect(r.isError, JSON.stringify(r)).toBeUndefined();
  const action = toolJson(r);
  expect(action).toMatchObject({ type: 'TRANSFER_OUT', status: 'APPROVED' });
  return action;
};

it('runs the same transfer_out (same idempotencyKey) once and answers the repeat identically', async () => {
  const marker = `twice ${randomUUID()}`;
  const key = randomUUID();
  const before = await balanceOf(p, h.accounts.USD);
  const first = await callTool(a.token, 1, 'transfer_out', out(marker, 250, { idempotencyKey: key }));
  const action = expectAction(first);
  // Another JSON-RPC id: the key, not the id, names the call.
  const again = await callTool(a.token, 2, 'transfer_out', out(marker, 250, { idempotencyKey: key }));
  expect(again.content).toEqual(first.content);
  expect(again._meta).toMatchObject({ 'corridor/idempotentReplayed': true });
  expect(first._meta?.['corridor/idempotentReplayed']).toBeUndefined();
  expect(toolJson(again).id).toBe(action.id);
  expect(await transfers(marker)).toBe(1);
  expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available - 250n);
});

it('refuses the same key with a changed amount like REST, and leaves the original undisturbed', async () => {
  const marker = `changed ${randomUUID()}`;
  const key = randomUUID();
  const first = await callTool(a.token, 1, 'transfer_out', out(marker, 300, { idempotencyKey: key }));
  expectAction(first);
  const before = await balanceOf(p, h.accounts.USD);
  const changed = await callTool(a.token, 2, 'transfer_out', out(marker, 301, { idempotencyKey: key }));
  // The REST API's refusal for a key reused with another body, word for word.
  const rest = await a.api.post('/agents/me/transfer-out', out(marker, 300), { headers: { 'idempotency-key': key } });
  expect(rest.status, rest.text).toBe(201);
  const restChanged = await a.api.post('/agents/me/transfer-out', out(marker, 301), {
    headers: { 'idempotency-key': key },
  });
  expect(restChanged.status).toBe(400);
  expect(expectToolError(changed, 'INVALID_INPUT')).toEqual(restChanged.body);
  expect(await transfers(marker)).toBe(2); // the MCP call and the REST request: separate key spaces
  expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available - 300n);
  const replay = await callTool(a.token, 3, 'transfer_out', out(marker, 300, { idempotencyKey: key }));
  expect(replay.content).toEqual(first.content);
});

it('without a key, takes the JSON-RPC id as the key, per agent and per tool', async () => {
  const marker = `by id ${randomUUID()}`;
  const id = `req-${randomUUID()}`;
  const first = await callTool(a.token, id, 'transfer_out', out(marker));
  expectAction(first);
  const again = await callTool(a.token, id, 'transfer_out', out(marker));
  expect(again.content).toEqual(first.content);
  expect(await transfers(marker)).toBe(1);
  // The same id with other arguments: refused, as a reused key is.
  expectToolError(await callTool(a.token, id, 'transfer_out', out(marker, 101)), 'INVALID_INPUT');
  // The same id for another tool, or from another agent of the customer, is another call.
  const pulled = await callTool(a.token, id, 'transfer_in', {
    source: { accountId: ext },
    destination: { accountId: h.accounts.USD },
    amount: 100,
  });
  expect(toolJson(pulled)).toMatchObject({ type: 'TRANSFER_IN' });
  const other = await connectedAgent(p, h.customerId);
  expectAction(await callTool(other.token, id, 'transfer_out', out(marker)));
  expect(await transfers(marker)).toBe(2);
});

it('runs a batch of 10 distinct calls once each, and a resent batch replays every one', async () => {
  const marker = `batch ${randomUUID()}`;
  const keys = randomUUID();
  const before = await balanceOf(p, h.accounts.USD);
  const batch = Array.from({ length: 10 }, (_, i) =>
    toolCall(`b${i}-${marker}`, 'transfer_out', out(marker, 100 + i, i % 2 ? { idempotencyKey: `${keys}/${i}` } : {})),
  );
  const first = await mcpPost(a.token, batch);
  expect(first.status, first.text).toBe(200);
  expect(first.body).toHaveLength(10);
  for (const r of first.body) expectAction(r.result);
  expect(await transfers(marker)).toBe(10);
  const again = await mcpPost(a.token, batch);
  expect(again.status, again.text).toBe(200);
  const byId = (body: { id: string; result: ToolResult }[]) =>
    Object.fromEntries(body.map((r) => [r.id, r.result.content]));
  expect(byId(again.body)).toEqual(byId(first.body));
  expect(await transfers(marker)).toBe(10);
  const sent = 10n * 100n + 45n;
  expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available - sent);
});

it('refuses a batch that repeats a request id as a whole, running none of it', async () => {
  const marker = `same id ${randomUUID()}`;
  const res = await mcpPost(a.token, [
    toolCall(5, 'transfer_out', out(marker, 100)),
    toolCall(5, 'transfer_out', out(marker, 200)),
  ]);
  expect(res.status, res.text).toBe(400);
  expect(res.body).toMatchObject({ id: null, error: { code: -32600, data: { code: 'INVALID_INPUT' } } });
  expect(await transfers(marker)).toBe(0);
});

it('refuses a batch of 21 calls as a whole, running none of them', async () => {
  const marker = `too many ${randomUUID()}`;
  const batch = Array.from({ length: 21 }, (_, i) => toolCall(i + 1, 'transfer_out', out(marker)));
  const res = await mcpPost(a.token, batch);
  expect(res.status, res.text).toBe(400);
  expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  expect(res.body.error.message).toMatch(/at most 20/);
  expect(res.body.error.data).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  expect(await transfers(marker)).toBe(0);
});

it('races two HTTP requests with one key: one effect, answered to both, or the changed one refused', async () => {
  for (let round = 0; round < 5; round++) {
    const marker = `race ${round} ${randomUUID()}`;
    const args = out(marker, 120, { idempotencyKey: randomUUID() });
    const [r1, r2] = await Promise.all([
      callTool(a.token, 1, 'transfer_out', args),
      callTool(a.token, 2, 'transfer_out', args),
    ]);
    expectAction(r1);
    expect(r2.content).toEqual(r1.content);
    expect(await transfers(marker)).toBe(1);
    // Other arguments racing under one key: one runs, the other is refused; one effect.
    const changed = `race changed ${round} ${randomUUID()}`;
    const key = randomUUID();
    const results = await Promise.all([
      callTool(a.token, 1, 'transfer_out', out(changed, 130, { idempotencyKey: key })),
      callTool(a.token, 2, 'transfer_out', out(changed, 131, { idempotencyKey: key })),
    ]);
    expect(results.filter((r) => r.isError).map((r) => toolJson(r).code)).toEqual(['INVALID_INPUT']);
    expect(await transfers(changed)).toBe(1);
  }
});

it('makes every tool that moves money or creates something exactly-once, and lists idempotencyKey for them', async () => {
  const twice = async (name: string, args: Record<string, unknown>) => {
    const withKey = { ...args, idempotencyKey: randomUUID() };
    const first = await callTool(a.token, 1, name, withKey);
    expect(first.isError, JSON.stringify(first)).toBeUndefined();
    const again = await callTool(a.token, 2, name, withKey);
    expect(again.content).toEqual(first.content);
    return toolJson(first);
  };
  const quote = await twice('create_quote', {
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: h.accounts.EUR },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1_000,
  });
  expect(quote.id).toMatch(/^Quote:/);
  // Executed twice without the key, the second would be refused as already submitted.
  expect(await twice('execute_quote', { quoteId: quote.id })).toMatchObject({ type: 'EXECUTE_QUOTE' });
  expect(
    await twice('transfer_in', { source: { accountId: ext }, destination: { accountId: h.accounts.USD }, amount: 50 }),
  ).toMatchObject({ type: 'TRANSFER_IN' });
  const added = await twice('add_external_account', {
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '000000009876',
      routingNumber: '021000021',
      bankAccountType: 'CHECKING',
      bankName: 'Test Bank',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Ike Dempotent',
        countryOfResidence: 'US',
        address: { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
      },
    },
  });
  expect(added.id).toMatch(/^ExternalAccount:/);

  const listed = await mcpPost(a.token, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const keyed = (listed.body.result.tools as { name: string; inputSchema: { properties: object } }[])
    .filter((t) => 'idempotencyKey' in t.inputSchema.properties)
    .map((t) => t.name);
  expect(keyed.sort()).toEqual([
    'add_external_account',
    'create_quote',
    'execute_quote',
    'transfer_in',
    'transfer_out',
  ]);
});

it('tells the client at initialization how money-moving calls stay exactly-once', async () => {
  const init = await mcpPost(a.token, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  });
  expect(init.status, init.text).toBe(200);
  const { instructions } = init.body.result as { instructions: string };
  expect(instructions).toMatch(/transfer_out.*exactly once per idempotencyKey/);
  expect(instructions).toMatch(/reuses request ids .* must send idempotencyKey/);
});
