import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { balanceOf, customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { parseJson } from '@/lib/core/json';
import { POST, GET, DELETE } from '@/app/mcp/route';
import { connectedAgent, policy } from './testing';

// The MCP server through the SDK's own client: the route handler is called in process, as the
// Next.js server would call it.
const routeFetch = async (url: string | URL, init?: RequestInit) => {
  const req = new Request(url, init);
  const handler = { POST, GET, DELETE }[req.method as 'POST' | 'GET' | 'DELETE'];
  return handler(req);
};

async function connect(token: string) {
  const client = new Client({ name: 'corridor-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
    fetch: routeFetch,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean };
const json = (r: unknown) => parseJson((r as ToolResult).content[0].text) as Record<string, unknown> & { id: string };

describe('MCP server', () => {
  let p: TestPlatform;
  let h: Holder;
  beforeAll(async () => {
    p = await newPlatform();
    h = await customerWithAccounts(p, 'Mo Model', ['USD', 'EUR']);
    await fund(p, h.accounts.USD, 100_000);
  });
  afterEach(async () => expectLedgerBalanced(p.platformId));

  it('lists its tools, creates and executes a quote, and reports a policy refusal as a tool error', async () => {
    const a = await connectedAgent(
      p,
      h.customerId,
      policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: 20_000 } }),
    );
    const client = await connect(a.token);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'whoami',
        'list_internal_accounts',
        'create_quote',
        'execute_quote',
        'transfer_out',
        'list_actions',
      ]),
    );
    for (const t of tools) expect(t.description!.length).toBeGreaterThan(20);
    const create = tools.find((t) => t.name === 'create_quote')!;
    expect(create.inputSchema.properties).toHaveProperty('lockedCurrencyAmount');

    const who = json(await client.callTool({ name: 'whoami', arguments: {} }));
    expect(who.id).toBe(a.id);
    const before = await balanceOf(p, h.accounts.USD);
    const quote = json(
      await client.callTool({
        name: 'create_quote',
        arguments: {
          source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
          destination: { destinationType: 'ACCOUNT', accountId: h.accounts.EUR },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 5000,
        },
      }),
    );
    expect(quote.id).toMatch(/^Quote:/);
    const executed = json(await client.callTool({ name: 'execute_quote', arguments: { quoteId: quote.id } }));
    expect(executed).toMatchObject({
      status: 'APPROVED',
      type: 'EXECUTE_QUOTE',
      transaction: { status: 'PROCESSING' },
    });
    expect((await balanceOf(p, h.accounts.USD)).available).toBe(
      before.available - BigInt(quote.totalSendingAmount as number),
    );

    // Over the per-transaction limit: refused by the same policy code, as a tool error.
    const ext = await externalAccount(p, h.customerId, 'USD', '321');
    const refused = (await client.callTool({
      name: 'transfer_out',
      arguments: { source: { accountId: h.accounts.USD }, destination: { accountId: ext }, amount: 10_001 },
    })) as ToolResult;
    expect(refused.isError).toBe(true);
    expect(json(refused)).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      details: { reason: 'PER_TRANSACTION_LIMIT_EXCEEDED' },
    });
    // Input validated by the operation's schema.
    const invalid = (await client.callTool({ name: 'transfer_out', arguments: { amount: 'lots' } })) as ToolResult;
    expect(invalid.isError).toBe(true);
    await client.close();
  });

  it('refuses a missing or revoked token', async () => {
    const res = await POST(new Request('http://localhost/mcp', { method: 'POST', body: '{}' }));
    expect(res.status).toBe(401);
    const a = await connectedAgent(p, h.customerId);
    expect((await p.api.delete(`/agents/${a.id}`)).status).toBe(204);
    await expect(connect(a.token)).rejects.toThrow();
  });
});
