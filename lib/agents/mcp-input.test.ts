import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { balanceOf, customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { withStrictRequests } from '@/tests/support/request-mode';
import { expectToolError, mcpPost, type ToolResult } from '@/tests/support/mcp';
import { parseJson, stringifyJson } from '@/lib/core/json';
import { connectedAgent, type TestAgent } from './testing';

// MCP tool arguments are refused exactly as the REST operation refuses the same JSON as its
// body: the same checks, the same error body (code, message, field errors), nothing written.

let p: TestPlatform;
let h: Holder;
let ext: string;
let a: TestAgent;
beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Val Idation', ['USD']);
  await fund(p, h.accounts.USD, 1_000_000);
  ext = await externalAccount(p, h.customerId, 'USD', '555');
  a = await connectedAgent(p, h.customerId);
});
afterEach(async () => expectLedgerBalanced(p.platformId));

const JSON_TYPE = { 'content-type': 'application/json' };
const accounts = () => `"source":{"accountId":"${h.accounts.USD}"},"destination":{"accountId":"${ext}"}`;
/** A transfer-out body as exact text, with `extra` (JSON members) after the accounts. */
const body = (extra: string) => `{${accounts()},${extra}}`;
const rpc = (args: string | Uint8Array) =>
  typeof args === 'string'
    ? `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"transfer_out","arguments":${args}}}`
    : Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"transfer_out","arguments":'),
        args,
        Buffer.from('}}'),
      ]);

/** The same JSON to REST's POST /agents/me/transfer-out and to MCP's transfer_out: both refused alike. */
async function refusedAlike(args: string, code = 'INVALID_INPUT') {
  const rest = await a.api.request('POST', '/agents/me/transfer-out', { rawBody: args, headers: JSON_TYPE });
  expect(rest.status, `${args} → ${rest.text}`).toBeGreaterThanOrEqual(400);
  expect(rest.status).toBeLessThan(500);
  const res = await mcpPost(a.token, rpc(args));
  expect(res.status, res.text).toBe(200);
  expect(expectToolError(res.body.result as ToolResult, code)).toEqual(rest.body);
  return rest.body;
}

describe('MCP tool input', () => {
  const prototypeKeys = [
    '"amount":1,"__proto__":{"amount":1000000}',
    '"amount":1,"constructor":{"name":"Object"}',
    '"amount":1,"prototype":{}',
    '"amount":1,"zz":{"__proto__":{"polluted":true}}',
    '"amount":1,"source2":[{"constructor":{}}]',
  ];
  for (const strict of [false, true]) {
    it(`refuses __proto__ and constructor like REST, moving nothing (${strict ? 'strict' : 'lenient'})`, async () => {
      const mode = <T>(fn: () => Promise<T>) => (strict ? withStrictRequests(fn) : fn());
      const before = await balanceOf(p, h.accounts.USD);
      for (const extra of prototypeKeys) {
        const refusal = await mode(() => refusedAlike(body(extra)));
        expect(refusal.details.errors[0].message).toMatch(/reserved name/);
      }
      // Also with an idempotencyKey beside them (the key is not a field of the operation).
      await mode(() => refusedAlike(body('"amount":1,"idempotencyKey":"k-proto","__proto__":{"amount":5}')));
      expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }

  it('refuses unknown fields in strict mode like REST, and ignores them otherwise', async () => {
    await withStrictRequests(() => refusedAlike(body('"amount":1,"amont":2')));
    const res = await mcpPost(a.token, rpc(body('"amount":1,"amont":2,"idempotencyKey":"lenient-unknown"')));
    expect(res.body.result.isError, res.text).toBeUndefined();
  });

  it('refuses text the database cannot hold like REST: NUL, lone surrogates, overlong strings', async () => {
    const before = await balanceOf(p, h.accounts.USD);
    await refusedAlike(body('"amount":1,"remittanceInformation":"a\\u0000b"'));
    await refusedAlike(body('"amount":1,"remittanceInformation":"a\\ud800b"'));
    await refusedAlike(body(`"amount":1,"remittanceInformation":"${'x'.repeat(20_000)}"`));
    await refusedAlike(`{${accounts().replace(h.accounts.USD, `${h.accounts.USD}\\u0000`)},"amount":1}`);
    expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
  });

  it('refuses a body that is not UTF-8 as a whole, with the REST error body, running nothing', async () => {
    const before = await balanceOf(p, h.accounts.USD);
    const bad = Buffer.concat([
      Buffer.from(body('"amount":1,"remittanceInformation":"caf')),
      Buffer.from([0xe9, 0x22, 0x7d]),
    ]);
    const rest = await a.api.request('POST', '/agents/me/transfer-out', { rawBody: bad, headers: JSON_TYPE });
    expect(rest.status, rest.text).toBe(400);
    const res = await mcpPost(a.token, rpc(bad));
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    // The same refusal, naming the field where it sits in the JSON-RPC message.
    const named = (text: string) => text.replaceAll('params.arguments.', '');
    expect(parseJson(named(stringifyJson(res.body.error.data)))).toEqual(rest.body);
    expect(res.body.error.data.details.errors[0].field).toBe('params.arguments.remittanceInformation');
    expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
  });

  it('reads amounts losslessly, as REST does', async () => {
    // 2^53 + 1: a float parser would turn it into 2^53 and answer about another amount.
    const refusal = await refusedAlike(body('"amount":9007199254740993'), 'TRANSACTION_SIZE_LIMIT_EXCEEDED');
    expect(JSON.stringify(refusal)).toContain('9007199254740993');
  });
});
