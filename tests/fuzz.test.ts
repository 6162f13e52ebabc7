import { connectedAgent } from '@/lib/agents/testing';
import { PEER_ADDRESS_HEADER } from '@/lib/http/client-address';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '@/lib/core/json';
import { API_BASE } from '@/lib/http/endpoint';
import { basic, dispatch, newPlatform, type TestPlatform } from './support/api';
import { brokenFieldsOf, casesOf, json, operations, type Init, type J } from './support/fuzz-plan';
import { customerWithAccounts, externalAccount, fund, type Holder } from './support/money';
import { withStrictRequests } from './support/request-mode';

// Every operation of the service, fed what a careless or hostile client sends: malformed JSON,
// the wrong type at the top and in every field, missing fields, huge strings, unknown fields
// (strict mode), prototype keys, bytes that are not UTF-8, lone surrogates, compressed bodies,
// deep nesting, oversized bodies, wrong content types, overlong and malformed path and query
// values. Each answer must be a 4xx in the specification's error body with `x-should-retry:
// false`, never a 5xx. (What never reaches a route handler is fed to a production server in
// tests/server-edge.test.ts.)
const FUZZ_ADDRESS = '2001:db8:f022::1';

let p: TestPlatform;
let auth: string;
// Requests actually sent by whichever tests ran, for the printed summary only: no assertion
// depends on another test having run.
let sent = 0;

// /agents/me operations are the agent's: they authenticate with its bearer token (Basic there
// is a failed authentication, and enough of them would throttle the test's address).
let agentAuth: string;

/** Sends one request; pushes a description onto `failures` when the answer is not as required. */
async function send(failures: string[], label: string, method: string, path: string, init: Init, expect4xx: boolean) {
  const headers: Record<string, string> = {
    // The fuzz's own client address, so whatever it does is never counted against other tests.
    [PEER_ADDRESS_HEADER]: FUZZ_ADDRESS,
    authorization: path.startsWith('/agents/me') ? agentAuth : auth,
    ...init.headers,
  };
  if (init.contentType) headers['content-type'] = init.contentType;
  const request = new Request(`http://localhost${API_BASE}${path}`, { method, headers, body: init.body });
  const { res } = await (init.strict ? withStrictRequests(() => dispatch(request)) : dispatch(request));
  sent++;
  const text = await res.text();
  const where = `${label}: ${method} ${path.slice(0, 120)} -> ${res.status} ${text.slice(0, 160)}`;
  if (res.status >= 500) return void failures.push(where);
  if (expect4xx && (res.status < 400 || res.status >= 500)) return void failures.push(`expected 4xx; ${where}`);
  if (res.status >= 400) {
    const body = text ? (parseJson(text) as J) : undefined;
    if (!body || body.status !== res.status || typeof body.code !== 'string' || typeof body.message !== 'string')
      failures.push(`not an error body; ${where}`);
    // Nothing here goes better on a second try (no rate limit, no server error).
    if (res.headers.get('x-should-retry') !== 'false') failures.push(`x-should-retry not false; ${where}`);
  }
}

/** Valid bodies of the main write operations, for the holder's funded USD account and `ext`. */
function validBodies(h: Holder, ext: string): { method: string; path: string; body: J; fresh?: () => Promise<J> }[] {
  return [
    {
      method: 'POST',
      path: '/customers',
      body: {
        customerType: 'INDIVIDUAL',
        fullName: 'Fuzz Person',
        birthDate: '1990-01-15',
        nationality: 'US',
        currencies: ['USD'],
        address: { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
      },
    },
    { method: 'POST', path: '/tokens', body: { name: 'fuzz', permissions: ['VIEW'] } },
    {
      method: 'PATCH',
      path: '/config',
      body: { webhookEndpoint: 'https://hooks.example.com/fuzz', embeddedWalletConfig: { appName: 'Fuzz' } },
    },
    {
      method: 'POST',
      path: '/quotes',
      body: {
        source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
        destination: { destinationType: 'ACCOUNT', accountId: ext },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
        description: 'fuzz',
      },
    },
    {
      method: 'POST',
      path: '/transfer-out',
      body: { source: { accountId: h.accounts.USD }, destination: { accountId: ext }, amount: 100 },
    },
    {
      method: 'POST',
      path: '/customers/external-accounts',
      body: {
        customerId: h.customerId,
        currency: 'EUR',
        accountInfo: {
          accountType: 'EUR_ACCOUNT',
          iban: 'DE89370400440532013000',
          beneficiary: {
            beneficiaryType: 'INDIVIDUAL',
            fullName: 'Fuzz Receiver',
            countryOfResidence: 'DE',
            address: { line1: 'Hauptstr. 1', postalCode: '10115', country: 'DE' },
          },
        },
      },
    },
  ];
}

describe('fuzz: every operation refuses bad input with a 4xx error body', () => {
  beforeAll(async () => {
    p = await newPlatform();
    auth = basic(p.credentials);
    const holder = await customerWithAccounts(p, 'Fuzz Agent Holder', ['USD']);
    agentAuth = `Bearer ${(await connectedAgent(p, holder.customerId)).token}`;
  });

  afterAll(() => {
    console.log(`[fuzz] ${sent} requests sent (${operations.length} operations in the specification)`);
  });

  for (const o of operations) {
    it(`${o.method} ${o.template}`, async () => {
      const failures: string[] = [];
      const cases = casesOf(o);
      for (const c of cases) await send(failures, c.label, o.method, c.path, c.init(), c.expect4xx);
      expect(failures).toEqual([]);
    });
  }

  /**
   * Every operation of the specification has its test above (they are made from the same list),
   * and the plans they send add up to a real fuzzing load. Counted from the plans, so this holds
   * whichever tests run and in whatever order.
   */
  it('fuzzed every operation', () => {
    expect(operations.length).toBeGreaterThan(80);
    const planned = operations.map((o) => casesOf(o).length);
    const total = planned.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(operations.length * 5);
    const inputless = operations.filter((_, i) => planned[i] === 0).map((o) => `${o.method} ${o.template}`);
    console.log(
      `[fuzz] ${total} requests planned over ${operations.length} operations` +
        (inputless.length ? ` (no input to fuzz: ${inputless.join(', ')})` : ''),
    );
  });

  /**
   * Valid bodies of the main write operations, each field then broken one at a time (wrong type,
   * huge string, an unknown sibling), so every field's own validation is reached with the others
   * valid. The valid body itself must succeed: the breakage, not something else, is refused.
   */
  it('refuses each broken field of otherwise valid bodies', async () => {
    const failures: string[] = [];
    const h = await customerWithAccounts(p, 'Fuzz Holder', ['USD', 'EUR']);
    await fund(p, h.accounts.USD, 1_000_000n);
    const ext = await externalAccount(p, h.customerId, 'EUR', '468');
    for (const c of validBodies(h, ext)) {
      await send(failures, `valid ${c.path}`, c.method, c.path, json(c.body), false);
      const ok = failures.length === 0;
      expect(ok, `the valid body of ${c.method} ${c.path} must succeed: ${failures.join('; ')}`).toBe(true);
      // Strict for the whole batch: its unknown-field cases are refusals only there, the others in any mode.
      await withStrictRequests(() =>
        Promise.all(brokenFieldsOf(c.body).map((b) => send(failures, b.label, c.method, c.path, json(b.body), true))),
      );
    }
    expect(failures).toEqual([]);
  });
});
