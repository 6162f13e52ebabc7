import { connectedAgent } from '@/lib/agents/testing';
import { PEER_ADDRESS_HEADER } from '@/lib/http/client-address';
import type { Json } from '@/tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '@/lib/core/json';
import { API_BASE } from '@/lib/http/endpoint';
import { buildOpenApi, endpointsOf } from '@/lib/http/openapi';
import { routeModules } from '@/lib/http/route-manifest';
import { JSON_BODY_LIMIT } from '@/lib/http/body';
import { basic, dispatch, newPlatform, type TestPlatform } from './support/api';
import { customerWithAccounts, externalAccount, fund } from './support/money';
import { withStrictRequests } from './support/request-mode';

// Every operation of the service, fed what a careless or hostile client sends: malformed JSON,
// the wrong type at the top and in every field, missing fields, huge strings, unknown fields
// (strict mode), prototype keys, bytes that are not UTF-8, lone surrogates, compressed bodies,
// deep nesting, oversized bodies, wrong content types, overlong and malformed path and query
// values. Each answer must be a 4xx in the specification's error body with `x-should-retry:
// false`, never a 5xx. (What never reaches a route handler is fed to a production server in
// tests/server-edge.test.ts.)
type J = Record<string, Json>;

const doc = buildOpenApi(endpointsOf(routeModules as unknown as Record<string, unknown>[]), API_BASE) as J;
const UUID = '00000000-0000-4000-8000-000000000000';
const HUGE = 'x'.repeat(100_000);

interface Operation {
  method: string;
  template: string;
  op: J;
}
const operations: Operation[] = Object.entries(doc.paths as J).flatMap(([template, ops]) =>
  Object.entries(ops as J).map(([method, op]) => ({ method: method.toUpperCase(), template, op: op as J })),
);

/** A value of the right shape for a path parameter, so the request gets as far as its body. */
function pathValue(schema: J): string {
  const candidates = [
    'Customer',
    'InternalAccount',
    'ExternalAccount',
    'Quote',
    'Transaction',
    'Document',
    'BeneficialOwner',
    'Verification',
    'Token',
    'AuthMethod',
    'Session',
    'Request',
    'DelegatedKey',
    'Invitation',
    'BulkCustomerImportJob',
    'Lookup',
    'Webhook',
  ].map((k) => `${k}:${UUID}`);
  const pattern = schema.pattern ? new RegExp(schema.pattern) : null;
  return [...candidates, '$alice@sandbox.uma.money', 'abc'].find((c) => !pattern || pattern.test(c)) ?? 'abc';
}

function pathOf(o: Operation, override?: (name: string) => string): string {
  return o.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const p = (o.op.parameters as J[]).find((x) => x.in === 'path' && x.name === name);
    return encodeURIComponent(override?.(name) ?? pathValue(p?.schema ?? {}));
  });
}

/** The properties a body schema accepts, across union variants. */
function properties(schema: J | undefined): Record<string, J> {
  if (!schema) return {};
  const out: Record<string, J> = { ...(schema.properties ?? {}) };
  for (const k of ['anyOf', 'oneOf', 'allOf']) for (const sub of schema[k] ?? []) Object.assign(out, properties(sub));
  return out;
}

function typeOf(schema: J): string | undefined {
  if (schema.type) return Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  for (const k of ['anyOf', 'oneOf']) for (const sub of schema[k] ?? []) if (typeOf(sub)) return typeOf(sub);
  return undefined;
}

/** A value of some other JSON type than the schema declares. */
function wrongValue(schema: J): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return 'not an object';
    default:
      return { unexpected: ['shape'] };
  }
}

interface Init {
  body?: BodyInit;
  contentType?: string;
  headers?: Record<string, string>;
  /** Sent with strict request reading on (CORRIDOR_STRICT_REQUESTS=1). */
  strict?: boolean;
}

/** One bad request; its body is made only when it is sent (some are megabytes). */
interface Case {
  label: string;
  path: string;
  init: () => Init;
  expect4xx: boolean;
}

const json = (v: unknown) => ({ body: JSON.stringify(v), contentType: 'application/json' });
/** ASCII JSON text sent as bytes with 0xFF (never UTF-8) where `text` has U+00FF. */
const badUtf8 = (text: string) => ({ body: Buffer.from(text, 'latin1'), contentType: 'application/json' });

/**
 * The bad requests one operation is fed, as a plan: the operation's test sends exactly these, and
 * the plan can be counted without sending anything.
 */
function casesOf(o: Operation): Case[] {
  const cases: Case[] = [];
  const add = (label: string, path: string, init: Case['init'], expect4xx: boolean) =>
    void cases.push({ label, path, init, expect4xx });
  const content = o.op.requestBody?.content as J | undefined;
  const multipart = content?.['multipart/form-data'];
  const schema = content?.['application/json']?.schema as J | undefined;
  const path = pathOf(o);
  if (schema) {
    const props = properties(schema);
    const required = (schema.required ?? []) as string[];
    add('malformed JSON', path, () => ({ body: '{"a": [1, 2', contentType: 'application/json' }), true);
    for (const top of ['[]', '42', '"text"', 'null', 'true'])
      add(`top-level ${top}`, path, () => ({ body: top, contentType: 'application/json' }), true);
    add('missing fields', path, () => json({}), required.length > 0);
    // Read leniently an unknown field is ignored (refused only for what else is missing).
    add('unknown field', path, () => json({ zzUnknownField: 1 }), required.length > 0);
    add('unknown field (strict)', path, () => ({ ...json({ zzUnknownField: 1 }), strict: true }), true);
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      add(
        `prototype key ${key}`,
        path,
        () => ({ body: `{"${key}":{"amount":1}}`, contentType: 'application/json' }),
        true,
      );
      add(
        `nested prototype key ${key}`,
        path,
        () => ({ body: `{"zz":{"${key}":1}}`, contentType: 'application/json' }),
        true,
      );
    }
    add('invalid UTF-8', path, () => badUtf8('{"zzText":"a\u00ffb"}'), true);
    add('invalid UTF-8 outside strings', path, () => badUtf8('{"zzText":1\u00ff}'), true);
    add('lone surrogate', path, () => ({ body: '{"zzText":"a\\ud800b"}', contentType: 'application/json' }), true);
    add('gzip content encoding', path, () => ({ ...json({}), headers: { 'content-encoding': 'gzip' } }), true);
    add(
      'deep nesting',
      path,
      () => ({ body: '['.repeat(20_000) + ']'.repeat(20_000), contentType: 'application/json' }),
      true,
    );
    add('oversized body', path, () => json({ blob: 'y'.repeat(JSON_BODY_LIMIT + 1) }), true);
    add('wrong content type', path, () => ({ body: 'a=1', contentType: 'application/x-www-form-urlencoded' }), true);
    for (const [name, prop] of Object.entries(props)) {
      add(`wrong type ${name}`, path, () => json({ [name]: wrongValue(prop) }), true);
      add(`huge ${name}`, path, () => json({ [name]: HUGE }), true);
      if (typeOf(prop) === 'string') {
        add(`invalid UTF-8 ${name}`, path, () => badUtf8(JSON.stringify({ [name]: 'a\u00ffb' })), true);
        add(`lone surrogate ${name}`, path, () => json({ [name]: 'a\udc00b' }), true);
      }
      const nested = properties(prop.items ?? prop);
      for (const [sub, subProp] of Object.entries(nested).slice(0, 12)) {
        const wrap = (inner: J) => json({ [name]: prop.items ? [inner] : inner });
        add(`wrong type ${name}.${sub}`, path, () => wrap({ [sub]: wrongValue(subProp) }), true);
        add(`huge ${name}.${sub}`, path, () => wrap({ [sub]: HUGE }), true);
      }
    }
  } else if (multipart) {
    add('multipart: wrong content type', path, () => json({ file: 'x' }), true);
    add(
      'multipart: malformed',
      path,
      () => ({ body: '--x\r\nbroken', contentType: 'multipart/form-data; boundary=x' }),
      true,
    );
    add('multipart: no fields', path, () => ({ body: new FormData() }), true);
  }
  for (const q of (o.op.parameters as J[]).filter((x) => x.in === 'query')) {
    add(`query ${q.name} huge`, `${path}?${q.name}=${'q'.repeat(5000)}`, () => ({}), true);
    const t = typeOf(q.schema ?? {});
    if (t === 'integer' || t === 'number' || t === 'boolean' || q.schema?.enum || q.schema?.format) {
      add(`query ${q.name} wrong type`, `${path}?${q.name}=%00not-valid%ff`, () => ({}), true);
    }
  }
  for (const name of (o.op.parameters as J[]).filter((x) => x.in === 'path').map((x) => x.name as string)) {
    add(
      `path ${name} huge`,
      pathOf(o, (n) => (n === name ? 'Z'.repeat(10_000) : pathValue({}))),
      () => ({}),
      true,
    );
    add(
      `path ${name} malformed`,
      pathOf(o, (n) => (n === name ? '../\u0000%' : pathValue({}))),
      () => ({}),
      true,
    );
  }
  return cases;
}

const FUZZ_ADDRESS = '2001:db8:f022::1';

describe('fuzz: every operation refuses bad input with a 4xx error body', () => {
  let p: TestPlatform;
  let auth: string;
  // Requests actually sent by whichever tests ran, for the printed summary only: no assertion
  // depends on another test having run.
  let sent = 0;

  // /agents/me operations are the agent's: they authenticate with its bearer token (Basic there
  // is a failed authentication, and enough of them would throttle the test's address).
  let agentAuth: string;
  beforeAll(async () => {
    p = await newPlatform();
    auth = basic(p.credentials);
    const holder = await customerWithAccounts(p, 'Fuzz Agent Holder', ['USD']);
    agentAuth = `Bearer ${(await connectedAgent(p, holder.customerId)).token}`;
  });

  afterAll(() => {
    console.log(`[fuzz] ${sent} requests sent (${operations.length} operations in the specification)`);
  });

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
    const cases: { method: string; path: string; body: J; fresh?: () => Promise<J> }[] = [
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
    for (const c of cases) {
      await send(failures, `valid ${c.path}`, c.method, c.path, json(c.body), false);
      const ok = failures.length === 0;
      expect(ok, `the valid body of ${c.method} ${c.path} must succeed: ${failures.join('; ')}`).toBe(true);
      const mutate = (obj: J, prefix: string[]) => {
        for (const [k, v] of Object.entries(obj)) {
          const at = [...prefix, k];
          const set = (value: unknown): J => {
            const copy = structuredClone(c.body);
            let cur = copy;
            for (const key of at.slice(0, -1)) cur = cur[key];
            cur[at[at.length - 1]] = value;
            return copy;
          };
          const label = at.join('.');
          const wrong =
            typeof v === 'string'
              ? 12345
              : typeof v === 'number'
                ? 'not a number'
                : Array.isArray(v)
                  ? { not: 'an array' }
                  : typeof v === 'object'
                    ? 'not an object'
                    : 'yes';
          pending.push(send(failures, `wrong type ${label}`, c.method, c.path, json(set(wrong)), true));
          pending.push(
            send(
              failures,
              `huge ${label}`,
              c.method,
              c.path,
              json(set(typeof v === 'number' ? Number.MAX_SAFE_INTEGER * 1e6 : HUGE)),
              true,
            ),
          );
          if (v && typeof v === 'object' && !Array.isArray(v)) {
            pending.push(
              send(failures, `unknown field in ${label}`, c.method, c.path, json(set({ ...v, zzUnknown: true })), true),
            );
            mutate(v as J, at);
          }
        }
      };
      const pending: Promise<void>[] = [];
      // Strict for the whole batch: its unknown-field cases are refusals only there, the others in any mode.
      await withStrictRequests(async () => {
        mutate(c.body, []);
        pending.push(
          send(failures, `unknown top-level field`, c.method, c.path, json({ ...c.body, zzUnknown: true }), true),
        );
        await Promise.all(pending);
      });
    }
    expect(failures).toEqual([]);
  });
});
