import { beforeAll, describe, expect, it } from 'vitest';
import { Api, expectError, newPlatform, type ApiResponse, type Json, type TestPlatform } from './support/api';
import { customerWithAccounts } from './support/money';
import { connectedAgent } from '@/lib/agents/testing';

// A query parameter given empty (`?customerId=`) or, when it takes one value, repeated
// (`?customerId=a&customerId=b`) is refused with 400 INVALID_INPUT naming it — on every operation
// that takes query parameters, walked from the served OpenAPI document. Read as "no filter", an
// empty customerId once answered a guide with another customer's accounts, which it then funded.
let p: TestPlatform;
let agent: Api;
let doc: Json;

beforeAll(async () => {
  p = await newPlatform();
  const c = await customerWithAccounts(p, 'Query Holder', ['USD']);
  agent = (await connectedAgent(p, c.customerId)).api;
  const served = await new Api().get('/openapi.json');
  expect(served.status).toBe(200);
  doc = served.body;
});

interface Operation {
  method: string;
  path: string;
  security: Json[];
  parameters: { name: string; in: string; schema: Json }[];
}

function operations(): Operation[] {
  return Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, ...op }) as Operation),
  );
}

/** A path parameter value its schema takes (`Kind:<uuid>` when it names a record). */
function pathValue(schema: Json): string {
  const kind = /^\^(\w+):/.exec(String(schema.pattern ?? ''))?.[1];
  return kind ? `${kind}:00000000-0000-4000-8000-000000000000` : 'x';
}

function call(op: Operation, query: string): Promise<ApiResponse> {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(pathValue(op.parameters.find((x) => x.name === name && x.in === 'path')!.schema)),
  );
  const api = op.security.some((s) => 'AgentAuth' in s) ? agent : op.security.length ? p.api : new Api();
  return api.request(op.method, `${path}?${query}`, op.method === 'GET' || op.method === 'DELETE' ? {} : { body: {} });
}

function expectRefused(res: ApiResponse, name: string, message: RegExp, label: string) {
  expect(res.status, `${label}: ${res.text}`).toBe(400);
  expect(res.body.code, label).toBe('INVALID_INPUT');
  expect(res.body.details.errors, label).toContainEqual(expect.objectContaining({ field: name }));
  const entry = res.body.details.errors.find((e: { field: string }) => e.field === name);
  expect(entry.message, label).toMatch(message);
  expect(res.body.message, label).toContain(name);
}

describe('every operation with query parameters', () => {
  it('refuses each parameter given empty, and each single-valued one given twice, naming it', async () => {
    const withQuery = operations().filter((op) => op.parameters.some((x) => x.in === 'query'));
    // The walk reaches every list operation (a check that it walks anything at all).
    expect(withQuery.filter((op) => op.method === 'GET').length).toBeGreaterThanOrEqual(30);
    let checked = 0;
    for (const op of withQuery) {
      for (const param of op.parameters.filter((x) => x.in === 'query')) {
        const label = `${op.method} ${op.path} ?${param.name}`;
        const name = encodeURIComponent(param.name);
        expectRefused(await call(op, `${name}=`), param.name, /must not be empty/, `${label}= (empty)`);
        if (param.schema.type === 'array') continue;
        expectRefused(await call(op, `${name}=a&${name}=b`), param.name, /given once/, `${label} (repeated)`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(100);
  });

  it('takes a list parameter repeated or comma-joined, as the reference declares it (arrays)', async () => {
    const lists = operations().flatMap((op) =>
      op.parameters.filter((x) => x.in === 'query' && x.schema.type === 'array').map((x) => ({ op, name: x.name })),
    );
    expect(lists.map(({ op, name }) => `${op.method} ${op.path} ${name}`)).toEqual([
      'GET /exchange-rates destinationCurrency',
    ]);
    const repeated = await p.api.get('/exchange-rates?destinationCurrency=EUR&destinationCurrency=MXN');
    const joined = await p.api.get('/exchange-rates?destinationCurrency=EUR,MXN');
    expect(repeated.status, repeated.text).toBe(200);
    expect(joined.body).toEqual(repeated.body);
    expectError(await p.api.get('/exchange-rates?destinationCurrency=,'), 400, 'INVALID_INPUT');
  });
});

describe('the filter of the issue: GET /customers/internal-accounts?customerId=', () => {
  it("is refused instead of listing every customer's accounts", async () => {
    const other = await customerWithAccounts(p, 'Someone Else', ['USD']);
    const res = await p.api.get('/customers/internal-accounts?customerId=');
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors).toEqual([
      {
        field: 'customerId',
        message: 'must not be empty: leave the parameter out instead',
        constraint: { minLength: 1 },
      },
    ]);
    const twice = await p.api.get(`/customers/internal-accounts?customerId=${other.customerId}&customerId=x`);
    expectError(twice, 400, 'INVALID_INPUT');
    expect(twice.body.details.errors).toEqual([
      { field: 'customerId', message: 'must be given once (it was given 2 times)' },
    ]);
    // Given once, the filter filters.
    const own = await p.api.get('/customers/internal-accounts', { query: { customerId: other.customerId } });
    expect(own.status, own.text).toBe(200);
    expect(own.body.data.map((a: Json) => a.customerId)).toEqual(own.body.data.map(() => other.customerId));
    expect(own.body.data.length).toBeGreaterThan(0);
  });
});
