import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { db } from '@/lib/core/db';
import { DomainError, ERROR_CODES } from '@/lib/core/errors';
import { errorResponse } from '@/lib/http/endpoint';
import { stillInProgress } from '@/lib/http/errors';
import { expectError, newPlatform, type ApiResponse, type Json, type TestPlatform } from './support/api';
import { customerWithAccounts, externalAccount, fund } from './support/money';
import { describeWithReference } from './support/needs-reference';
import { withStrictRequests } from './support/request-mode';
import { newWallet } from '@/lib/wallet-auth/testing/flows';

// Clients generated from the interface work unchanged: fields a request schema does not define
// are ignored (never stored, never echoed; refused only in strict mode), array query parameters
// are taken repeated or comma-joined, and every error says whether a retry can help.

/** Rows of these tables whose text contains `marker`: what a request stored anywhere it could. */
async function storedAnywhere(marker: string): Promise<number> {
  let n = 0;
  for (const table of ['Customer', 'ExternalAccount', 'Event', 'IdempotencyRecord', 'PlatformCurrency', 'Platform']) {
    const rows = await db().$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "${table}" t WHERE t::text LIKE $1`,
      `%${marker}%`,
    );
    n += rows[0].n;
  }
  return n;
}

describe('fields a request schema does not define', () => {
  let p: TestPlatform;
  let customerId: string;
  beforeAll(async () => {
    p = await newPlatform();
    customerId = (await customerWithAccounts(p, 'Compat Owner', ['USD'])).customerId;
  });

  // What the interface's generated client 0.7.0 sends for a bank account: fields of earlier
  // versions of the interface (accountInfo.countries, accountInfo.paymentRails).
  const oldClientAccount = (suffix: string) => ({
    customerId,
    currency: 'EUR',
    accountInfo: {
      accountType: 'EUR_ACCOUNT',
      iban: `DE8937040044053201${suffix}`,
      countries: ['ZZMARKER1'],
      paymentRails: ['ZZMARKER2_RAIL'],
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Old Client Receiver',
        countryOfResidence: 'DE',
        address: { line1: 'Hauptstr. 1', postalCode: '10115', country: 'DE', zzMarker3: 'x' },
      },
    },
    zzMarker4: { nested: true },
  });

  it('ignores them by default: the old client creates its bank accounts, nothing of them is stored or echoed', async () => {
    const res = await p.api.post('/customers/external-accounts', oldClientAccount('3000'));
    expect(res.status, res.text).toBe(201);
    expect(res.text).not.toMatch(/ZZMARKER|zzMarker|countries/i);
    // The service's own rails for the account, not the ones sent.
    expect(res.body.accountInfo.paymentRails.length).toBeGreaterThan(0);
    const got = await p.api.get(`/customers/external-accounts/${res.body.id}`);
    expect(got.text).not.toMatch(/ZZMARKER|zzMarker|countries/i);
    for (const marker of ['ZZMARKER', 'zzMarker']) expect(await storedAnywhere(marker)).toBe(0);

    const customer = await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Lenient Person',
      platformCustomerId: 'lenient-1',
      zzMarker5: 'secret',
      address: { line1: '1 Main St', postalCode: '62701', country: 'US', zzMarker6: 1 },
    });
    expect(customer.status, customer.text).toBe(201);
    expect(customer.text).not.toMatch(/zzMarker/);
    expect((await p.api.get(`/customers/${customer.body.id}`)).text).not.toMatch(/zzMarker/);
    const patched = await p.api.patch(`/customers/${customer.body.id}`, {
      customerType: 'INDIVIDUAL',
      fullName: 'Lenient Too',
      zzMarker7: 1,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.fullName).toBe('Lenient Too');
    expect(patched.text).not.toMatch(/zzMarker/);
    expect(await storedAnywhere('zzMarker')).toBe(0);
  });

  it('refuses them in strict mode (CORRIDOR_STRICT_REQUESTS=1), naming each, and creates nothing', async () => {
    const before = (await p.api.get('/customers/external-accounts', { query: { customerId } })).body.totalCount;
    const res = await withStrictRequests(() => p.api.post('/customers/external-accounts', oldClientAccount('4000')));
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors.map((e: Json) => e.field).sort()).toEqual([
      'accountInfo.beneficiary.address.zzMarker3',
      'accountInfo.countries',
      'accountInfo.paymentRails',
      'zzMarker4',
    ]);
    for (const e of res.body.details.errors) expect(e.message).toBe('is not a field of this operation');
    expect((await p.api.get('/customers/external-accounts', { query: { customerId } })).body.totalCount).toBe(before);
  });

  it('keeps refusing query parameters an operation does not define, in either mode', async () => {
    const res = await p.api.get('/customers', { query: { platformCustomerID: 'typo' } });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors).toEqual([
      { field: 'platformCustomerID', message: 'is not a query parameter of this operation' },
    ]);
  });
});

// Values to send for each query parameter the reference types as an array (form style, exploded).
const ARRAY_QUERY_VALUES: Record<string, string[]> = {
  'GET /exchange-rates destinationCurrency': ['MXN', 'EUR', 'INR'],
};

describeWithReference('openapi.yaml', 'array query parameters', (file) => {
  type J = Record<string, Json>;
  const ref = YAML.parse(readFileSync(file, 'utf8')) as J;
  const resolve = (s: J | undefined): J | undefined => {
    let cur = s;
    while (cur?.$ref)
      cur = (cur.$ref as string)
        .split('/')
        .slice(1)
        .reduce((o: J, k: string) => o[k], ref);
    return cur;
  };
  const arrays: string[] = [];
  for (const [path, ops] of Object.entries(ref.paths as J))
    for (const [method, op] of Object.entries(ops as J))
      for (const param of ((op as J).parameters ?? []) as J[]) {
        const q = resolve(param);
        if (q?.in === 'query' && resolve(q.schema)?.type === 'array')
          arrays.push(`${method.toUpperCase()} ${path} ${q.name}`);
      }

  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
  });

  it('has values for every array query parameter of the reference', () => {
    expect(arrays.length).toBeGreaterThan(0);
    expect(arrays.sort()).toEqual(Object.keys(ARRAY_QUERY_VALUES).sort());
  });

  it.each(Object.entries(ARRAY_QUERY_VALUES))('%s: repeated, comma-joined and mixed mean the same', async (key, v) => {
    const [, path, name] = key.split(' ');
    const get = (query: string) => p.api.get(`${path}?${query}`);
    const repeated = await get(v.map((x) => `${name}=${x}`).join('&'));
    const joined = await get(`${name}=${v.map(encodeURIComponent).join('%2C')}`);
    const joinedRaw = await get(`${name}=${v.join(',')}`);
    const mixed = await get(`${name}=${v[0]},${v[1]}&${name}=${v.slice(2).join(',')}`);
    const first = await get(`${name}=${v[0]}`);
    for (const res of [repeated, joined, joinedRaw, mixed, first]) expect(res.status, res.text).toBe(200);
    expect(repeated.body.data.length).toBeGreaterThan(first.body.data.length);
    for (const res of [joined, joinedRaw, mixed]) expect(res.body).toEqual(repeated.body);
  });
});

const hint = (res: ApiResponse) => res.headers.get('x-should-retry');

describe('x-should-retry on every error answer', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
  });

  it('is false where a retry cannot help: 400, 401, 403, 404, 405, 409 duplicate or wrong state, 410, 415', async () => {
    const h = await customerWithAccounts(p, 'Retry Holder', ['USD', 'EUR']);
    await fund(p, h.accounts.USD, 10_000n);
    const ext = await externalAccount(p, h.customerId, 'USD', '468');
    const viewer = await p.withPermissions('VIEW');
    const out = await p.api.post('/transfer-out', {
      source: { accountId: h.accounts.USD },
      destination: { accountId: ext },
      amount: 100,
    });
    expect(out.status, out.text).toBe(201);
    const first = await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Dup',
      platformCustomerId: 'dup-1',
    });
    expect(first.status, first.text).toBe(201);
    await p.api.delete(`/customers/${first.body.id}`);
    const cases: [ApiResponse, number][] = [
      [await p.api.post('/customers', { customerType: 'NOBODY' }), 400],
      [await p.api.get('/config', { authorization: null }), 401],
      [await viewer.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'No Permission' }), 403],
      [await p.api.get('/customers/Customer:00000000-0000-4000-8000-000000000000'), 404],
      [await p.api.get('/no/such/operation'), 404],
      [await p.api.put('/config', {}), 405],
      [await p.api.post(`/transactions/${out.body.id}/approve`, {}), 409],
      [await p.api.delete(`/customers/${first.body.id}`), 410],
      [
        await p.api.request('PATCH', '/config', {
          rawBody: '{}',
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        }),
        415,
      ],
    ];
    const second = await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Dup',
      platformCustomerId: 'dup-2',
    });
    const dup = await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Dup',
      platformCustomerId: 'dup-2',
    });
    expect(second.status).toBe(201);
    cases.push([dup, 409]);
    for (const [res, status] of cases) {
      expect(res.status, res.text).toBe(status);
      expect(hint(res), `${status} ${res.text}`).toBe('false');
    }
  });

  it('is false on a stored error replayed under its Idempotency-Key (a retry replays it again)', async () => {
    const body = { customerType: 'INDIVIDUAL', fullName: 'Replay', platformCustomerId: 'replay-1' };
    expect((await p.api.post('/customers', body)).status).toBe(201);
    const headers = { 'idempotency-key': `retry-hint-${Date.now()}` };
    const refused = await p.api.post('/customers', body, { headers });
    const replay = await p.api.post('/customers', body, { headers });
    expectError(refused, 409, 'CONFLICT');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.status).toBe(409);
    expect(hint(refused)).toBe('false');
    expect(hint(replay)).toBe('false');
  });

  it('is true where waiting helps: a rate-limited re-issue (429)', async () => {
    const w = await newWallet(p);
    const first = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
    expect(first.status, first.text).toBe(200);
    const again = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
    expectError(again, 429, 'RATE_LIMITED');
    expect(hint(again)).toBe('true');
    expect(again.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

// The same header on answers built directly from errors, with no request behind them.
describe('x-should-retry on every error answer', () => {
  it('follows the code for answers a test cannot provoke over HTTP, and covers every code', async () => {
    const of = (err: DomainError) => errorResponse(err).headers.get('x-should-retry');
    expect(of(stillInProgress('A request with this Idempotency-Key is still in progress'))).toBe('true');
    expect(errorResponse(stillInProgress('x')).status).toBe(409);
    for (const code of ['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE', 'SERVICE_SWITCH_ERROR', 'RATE_LIMITED'] as const)
      expect(of(new DomainError(code, 'x')), code).toBe('true');
    for (const code of ['QUOTE_REQUEST_FAILED', 'LNURLP_REQUEST_FAILED', 'REQUEST_TIMEOUT'] as const)
      expect(of(new DomainError(code, 'x')), code).toBe('true');
    for (const code of ['NOT_IMPLEMENTED', 'DAILY_VOLUME_LIMIT_EXCEEDED', 'CONFLICT', 'ACCOUNT_LOCKED'] as const)
      expect(of(new DomainError(code, 'x')), code).toBe('false');
    for (const code of ERROR_CODES) expect(['true', 'false'], code).toContain(of(new DomainError(code, 'x')));
  });
});
