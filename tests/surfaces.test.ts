import { randomUUID } from 'node:crypto';
import { db } from '@/lib/core/db';
import { beforeAll, expect, it, vi } from 'vitest';
import { encode } from 'next-auth/jwt';
import { runCommand } from '@/lib/core/command';
import { tokenKey } from '@/lib/core/crypto/vault';
import { connectedAgent, policy, type TestAgent } from '@/lib/agents/testing';
import * as staff from '@/lib/staff/service';
import { newWallet } from '@/lib/wallet-auth/testing/flows';
import { listCards } from '@/lib/wallet-web/commands';
import { walletActor } from '@/lib/wallet-web/service';
import { newPlatform, type ApiResponse, type TestPlatform } from '@/tests/support/api';
import { callTool, toolJson } from '@/tests/support/mcp';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { current, CookieJar } from './pages/cookie-jar';
import { json, request, signIn } from './pages/wallet-client';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// Issue 24: every surface runs the same commands through the one runner (lib/core/command.ts), so
// the same refusal comes back with the same code from each: the REST API, an MCP tool, a console
// server action and a wallet route.
const actions = await import('@/app/console/_lib/actions');
const { POST: walletQuote } = await import('@/app/wallet/api/quotes/route');
const { POST: walletExecute } = await import('@/app/wallet/api/quotes/[id]/execute/route');
const { GET: walletCards } = await import('@/app/wallet/api/cards/route');

let p: TestPlatform;
let other: TestPlatform;
let h: Holder;
let ext: string;
let agent: TestAgent;
let viewOnlyAgent: TestAgent;
let approvalAgent: TestAgent;
let n = 0;

/** The console's browser, signed in as a new staff member of `p` with `role`. */
async function consoleAs(role: 'viewer' | 'operator' | 'admin') {
  const email = `${role}-${process.pid}-${++n}@surfaces.example`;
  await staff.createUser(p.platformId, { email, role, password: 'surfaces-password-1' }, db());
  const { sessionId, user } = await staff.signIn(email, 'surfaces-password-1');
  const token = await encode({
    token: { sub: user.id, email, sid: sessionId },
    secret: tokenKey('staff-sessions').toString('base64url'),
    salt: 'corridor_staff',
  });
  current.jar = new CookieJar().set('corridor_staff', token);
}

/** A wallet holder of `p`, signed in (the jar is `current`), with money in the wallet. */
async function holder() {
  const w = await newWallet(p);
  expect((await p.api.post(`/sandbox/internal-accounts/${w.accountId}/fund`, { amount: 10_000 })).status).toBe(200);
  const session = await signIn(w.email);
  return { ...w, ...session };
}

async function walletQuoteOf(): Promise<string> {
  const q = await json(
    await walletQuote(
      request('POST', '/quotes', { destination: { umaAddress: '$success.mxn@sandbox.uma.money' }, amount: '500' }),
    ),
  );
  expect(q.status, JSON.stringify(q.body)).toBe(201);
  return q.body.id;
}

const execute = (quoteId: string, headers: Record<string, string> = {}) =>
  walletExecute(request('POST', `/quotes/${quoteId}/execute`, {}, headers), {
    params: Promise.resolve({ id: quoteId }),
  });

const out = (amount: unknown) => ({
  source: { accountId: h.accounts.USD },
  destination: { accountId: ext },
  amount,
  remittanceInformation: `surfaces ${randomUUID()}`,
});

/** A REST error answer: its status, code and (for field errors) the fields named. */
function rest(res: ApiResponse) {
  return { status: res.status, code: res.body?.code, fields: fieldsOf(res.body) };
}
function tool(r: Awaited<ReturnType<typeof callTool>>) {
  expect(r.isError, JSON.stringify(r)).toBe(true);
  const body = toolJson(r);
  return { status: body.status, code: body.code, fields: fieldsOf(body) };
}
async function wallet(res: Response) {
  const { status, body } = await json(res);
  return { status, code: body?.code, fields: fieldsOf(body) };
}
function action(r: { ok: boolean; code?: string; fields?: { field: string }[] }) {
  expect(r.ok).toBe(false);
  return { code: r.code, fields: (r.fields ?? []).map((f) => f.field) };
}
const fieldsOf = (body: { details?: { errors?: { field: string }[] } } | undefined) =>
  (body?.details?.errors ?? []).map((e) => e.field);

beforeAll(async () => {
  p = await newPlatform();
  process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId; // the wallet pages' platform
  other = await newPlatform();
  h = await customerWithAccounts(p, 'Sur Faces', ['USD']);
  await fund(p, h.accounts.USD, 1_000_000);
  ext = await externalAccount(p, h.customerId, 'USD', '424');
  agent = await connectedAgent(p, h.customerId);
  viewOnlyAgent = await connectedAgent(p, h.customerId, policy({ permissions: ['VIEW_TRANSACTIONS'] }));
  approvalAgent = await connectedAgent(p, h.customerId, policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
});

it('bad input: 400 INVALID_INPUT naming the field', async () => {
  expect(rest(await p.api.post('/transfer-out', out('lots')))).toEqual({
    status: 400,
    code: 'INVALID_INPUT',
    fields: ['amount'],
  });
  expect(tool(await callTool(agent.token, 1, 'transfer_out', out('lots')))).toEqual({
    status: 400,
    code: 'INVALID_INPUT',
    fields: ['amount'],
  });
  await consoleAs('operator');
  expect(action(await actions.advanceClockAction('soon' as never))).toEqual({
    code: 'INVALID_INPUT',
    fields: ['seconds'],
  });
  await holder();
  const res = await walletQuote(request('POST', '/quotes', { destination: { accountId: ext }, amount: 'lots' }));
  expect(await wallet(res)).toEqual({ status: 400, code: 'INVALID_INPUT', fields: ['amount'] });
});

it('a caller without the permission: 403 FORBIDDEN, nothing done', async () => {
  const viewer = await p.withPermissions('VIEW');
  expect(rest(await viewer.post('/transfer-out', out(100)))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  expect(tool(await callTool(viewOnlyAgent.token, 2, 'transfer_out', out(100)))).toMatchObject({
    status: 403,
    code: 'FORBIDDEN',
  });
  await consoleAs('viewer');
  expect(action(await actions.advanceClockAction(60))).toMatchObject({ code: 'FORBIDDEN' });
  // A wallet route runs its commands as the signed-in customer, and nobody else may run them:
  // not the wallet pages' own platform actor (the runner's actor rule), not a browser without a
  // session (the route's 401).
  await expect(runCommand(listCards, await walletActor(p.platformId), {})).rejects.toMatchObject({
    code: 'FORBIDDEN',
  });
  current.jar = new CookieJar();
  expect(await wallet(await walletCards())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
});

it("another customer's quote: 404 QUOTE_NOT_FOUND, nothing moved", async () => {
  await holder();
  const quoteId = await walletQuoteOf(); // the first wallet holder's
  expect(rest(await other.api.post(`/quotes/${quoteId}/execute`, {}))).toMatchObject({
    status: 404,
    code: 'QUOTE_NOT_FOUND',
  });
  expect(tool(await callTool(agent.token, 3, 'execute_quote', { quoteId }))).toMatchObject({
    status: 404,
    code: 'QUOTE_NOT_FOUND',
  });
  await holder(); // a second holder signs in on this browser
  expect(await wallet(await execute(quoteId))).toMatchObject({ status: 404, code: 'QUOTE_NOT_FOUND' });
  // The console's staff act on their own platform's objects only: the pending action of
  // another platform is not found either.
  const q = await p.api.get(`/quotes/${quoteId}`);
  expect(q.body.status, q.text).toBe('PENDING');
  await consoleAs('operator');
  const approve = action(await actions.approveAgentActionAction(`AgentAction:${randomUUID()}`, randomUUID()));
  expect(approve.code).toBe('REFERENCE_NOT_FOUND');
});

it('a repeated idempotency key with a changed request: 400 INVALID_INPUT on Idempotency-Key', async () => {
  const key = randomUUID();
  const first = await p.api.post('/transfer-out', out(100), { headers: { 'idempotency-key': key } });
  expect(first.status, first.text).toBe(201);
  const changed = await p.api.post('/transfer-out', out(101), { headers: { 'idempotency-key': key } });
  expect(rest(changed)).toEqual({ status: 400, code: 'INVALID_INPUT', fields: ['Idempotency-Key'] });

  const mcpKey = randomUUID();
  const once = await callTool(agent.token, 4, 'transfer_out', { ...out(100), idempotencyKey: mcpKey });
  expect(once.isError, JSON.stringify(once)).toBeUndefined();
  expect(tool(await callTool(agent.token, 5, 'transfer_out', { ...out(101), idempotencyKey: mcpKey }))).toEqual({
    status: 400,
    code: 'INVALID_INPUT',
    fields: ['Idempotency-Key'],
  });

  const held = await approvalAgent.api.post('/agents/me/transfer-out', out(100));
  expect(held.body.status, held.text).toBe('PENDING_APPROVAL');
  await consoleAs('operator');
  const click = randomUUID();
  expect(await actions.approveAgentActionAction(held.body.id, click)).toMatchObject({ ok: true });
  // The same click's key answers the same again, without approving twice ...
  expect(await actions.approveAgentActionAction(held.body.id, click)).toMatchObject({
    ok: true,
    value: { id: held.body.id, status: 'APPROVED' },
  });
  // ... and refuses another action under it.
  expect(action(await actions.approveAgentActionAction(`AgentAction:${randomUUID()}`, click))).toEqual({
    code: 'INVALID_INPUT',
    fields: ['Idempotency-Key'],
  });

  await holder();
  const quoteId = await walletQuoteOf();
  const walletKey = randomUUID();
  // The first attempt's answer (a refused, malformed signature) is stored under the key ...
  const tried = await json(await execute(quoteId, { 'idempotency-key': walletKey, 'service-wallet-signature': 'x' }));
  expect(tried.status, JSON.stringify(tried.body)).toBeGreaterThanOrEqual(400);
  expect(tried.status).toBeLessThan(500);
  // ... so the same key with another request is refused for good.
  expect(await wallet(await execute(quoteId, { 'idempotency-key': walletKey }))).toEqual({
    status: 400,
    code: 'INVALID_INPUT',
    fields: ['Idempotency-Key'],
  });
});
