import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type ApiResponse, type TestPlatform } from './support/api';
import { expectLedgerBalanced } from './support/ledger';
import { balanceOf, customerWithAccounts, externalAccount, fund, type Holder } from './support/money';
import { withStrictRequests } from './support/request-mode';

// Request bodies as bytes: text that is not UTF-8 or not Unicode is refused naming its field
// (never stored as U+FFFD), field names that reach prototypes are refused wherever they occur
// (and move no money), and compressed bodies are refused with 415.
const JSON_TYPE = { 'content-type': 'application/json' };

/** JSON text as bytes, each U+00FF in it replaced by the byte sequence `bad` (never UTF-8). */
function withBytes(text: string, bad: number[]): Buffer {
  const parts = text.split('\u00ff').map((t) => Buffer.from(t, 'utf8'));
  return Buffer.concat(parts.flatMap((p, i) => (i ? [Buffer.from(bad), p] : [p])));
}

function expectFieldErrors(res: ApiResponse, fields: string[], message: RegExp) {
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual(fields);
  for (const e of res.body.details.errors) expect(e.message).toMatch(message);
  expect(res.headers.get('x-should-retry')).toBe('false');
}

/** A customer's JSON text, written out so that its bytes can be altered. */
const customer = (fullName: string, id: string) =>
  `{"customerType":"INDIVIDUAL","fullName":"${fullName}","platformCustomerId":"${id}","address":{"line1":"1 Main St","postalCode":"62701","country":"US"}}`;

describe('request bodies that are not Unicode text', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
  });

  const stored = async (id: string) =>
    (await p.api.get('/customers', { query: { platformCustomerId: id } })).body.totalCount as number;

  it('refuses bytes that are not UTF-8 with 400 naming the field, and stores nothing', async () => {
    const sequences: [string, number[]][] = [
      ['a byte never in UTF-8', [0xff]],
      ['a lone continuation byte', [0x80]],
      ['a truncated sequence', [0xe2, 0x82]],
      ['an overlong encoding', [0xc0, 0xaf]],
      ['an encoded surrogate', [0xed, 0xa0, 0x80]],
      ['a code point beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ];
    for (const [what, bad] of sequences) {
      const id = `utf8-${bad.join('-')}`;
      const res = await p.api.request('POST', '/customers', {
        rawBody: withBytes(customer('Jos\u00ff Garcia', id), bad),
        headers: JSON_TYPE,
      });
      expectFieldErrors(res, ['fullName'], /not valid UTF-8/);
      expect(await stored(id), what).toBe(0);
    }
    const nested = await p.api.request('POST', '/customers', {
      rawBody: withBytes(customer('Jo Garcia', 'utf8-nested').replace('1 Main St', '1 M\u00ffin St'), [0xff]),
      headers: JSON_TYPE,
    });
    expectFieldErrors(nested, ['address.line1'], /not valid UTF-8/);
    const inName = await p.api.request('POST', '/customers', {
      rawBody: withBytes('{"customerType":"INDIVIDUAL","full\u00ffName":"Jo"}', [0xff]),
      headers: JSON_TYPE,
    });
    expectFieldErrors(inName, ['(body)'], /not valid UTF-8/);
    const outside = await p.api.request('POST', '/customers', {
      rawBody: withBytes('{"customerType":"INDIVIDUAL"\u00ff}', [0xff]),
      headers: JSON_TYPE,
    });
    expectFieldErrors(outside, ['(body)'], /not valid UTF-8/);
    expect(await stored('utf8-nested')).toBe(0);
  });

  it('refuses lone surrogates (escaped in JSON) with 400 naming the field, and stores nothing', async () => {
    for (const escape of ['\\ud800', '\\udfff', 'x\\ud83d', '\\ude00x']) {
      const id = `surrogate-${escape.replace(/\W/g, '')}`;
      const res = await p.api.request('POST', '/customers', {
        rawBody: customer(`Jo ${escape} Garcia`, id),
        headers: JSON_TYPE,
      });
      expectFieldErrors(res, ['fullName'], /lone surrogate/);
      expect(await stored(id)).toBe(0);
    }
    const inArray = await p.api.request('POST', '/customers', {
      rawBody: '{"customerType":"INDIVIDUAL","fullName":"Jo","currencies":["USD","\\ud800"]}',
      headers: JSON_TYPE,
    });
    expectFieldErrors(inArray, ['currencies[1]'], /lone surrogate/);
    const inKey = await p.api.request('POST', '/customers', {
      rawBody: '{"customerType":"INDIVIDUAL","fullName":"Jo","address":{"\\udc00":1}}',
      headers: JSON_TYPE,
    });
    expectFieldErrors(inKey, ['address'], /lone surrogates/);
  });

  it('keeps valid text exactly: pairs, U+FFFD sent as itself, accents', async () => {
    const name = 'Jos\u00e9 \u00dcn\u00efc\u00f8d\u00e9 \ud83d\ude00 \ufffd \u4e2d\u6587';
    const viaEscapes = await p.api.request('POST', '/customers', {
      rawBody: customer('Jos\\u00e9 \\u00dcn\\u00efc\\u00f8d\\u00e9 \\ud83d\\ude00 \\ufffd \\u4e2d\\u6587', 'text-1'),
      headers: JSON_TYPE,
    });
    expect(viaEscapes.status, viaEscapes.text).toBe(201);
    expect(viaEscapes.body.fullName).toBe(name);
    const viaBytes = await p.api.request('POST', '/customers', {
      rawBody: Buffer.from(customer(name, 'text-2'), 'utf8'),
      headers: JSON_TYPE,
    });
    expect(viaBytes.status, viaBytes.text).toBe(201);
    expect((await p.api.get(`/customers/${viaBytes.body.id}`)).body.fullName).toBe(name);
  });
});

describe('prototype keys', () => {
  let p: TestPlatform;
  let h: Holder;
  let ext: string;
  beforeAll(async () => {
    p = await newPlatform();
    h = await customerWithAccounts(p, 'Proto Holder', ['USD', 'EUR']);
    await fund(p, h.accounts.USD, 10_000n);
    ext = await externalAccount(p, h.customerId, 'EUR', '468');
  });

  const bodies: [string, string][] = [
    ['{"amount":1,"constructor":{"name":"Object"}}', 'constructor'],
    ['{"amount":1,"constructor":1}', 'constructor'],
    ['{"amount":1,"__proto__":{"amount":1000000}}', '__proto__'],
    ['{"amount":1,"prototype":{}}', 'prototype'],
    ['{"amount":1,"zz":{"__proto__":{"polluted":true}}}', 'zz.__proto__'],
    ['{"amount":1,"zz":[{"constructor":{}}]}', 'zz[0].constructor'],
  ];

  for (const strict of [false, true]) {
    it(`refuses them naming the key, and no money moves (${strict ? 'strict' : 'lenient'} reading)`, async () => {
      const mode = <T>(fn: () => Promise<T>) => (strict ? withStrictRequests(fn) : fn());
      const before = await balanceOf(p, h.accounts.USD);
      for (const [body, field] of bodies) {
        const funded = await mode(() =>
          p.api.request('POST', `/sandbox/internal-accounts/${h.accounts.USD}/fund`, {
            rawBody: body,
            headers: JSON_TYPE,
          }),
        );
        expectFieldErrors(funded, [field], /reserved name/);
        const out = await mode(() =>
          p.api.request('POST', '/transfer-out', {
            rawBody: body.replace(
              '"amount":1',
              `"amount":1,"source":{"accountId":"${h.accounts.USD}"},"destination":{"accountId":"${ext}"}`,
            ),
            headers: JSON_TYPE,
          }),
        );
        expectFieldErrors(out, [field], /reserved name/);
      }
      // In a nested object the schema knows (source), too.
      const nested = await mode(() =>
        p.api.request('POST', '/transfer-out', {
          rawBody: `{"amount":1,"source":{"accountId":"${h.accounts.USD}","constructor":{}},"destination":{"accountId":"${ext}"}}`,
          headers: JSON_TYPE,
        }),
      );
      expectFieldErrors(nested, ['source.constructor'], /reserved name/);
      expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      await expectLedgerBalanced(p.platformId);
      // The same requests without the key do move money: the refusal above is the key's.
      const ok = await p.api.post(`/sandbox/internal-accounts/${h.accounts.USD}/fund`, { amount: 1 });
      expect(ok.status, ok.text).toBe(200);
      expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available + 1n);
    });
  }

  it('refuses them as query parameters like any unknown parameter', async () => {
    for (const key of ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty']) {
      const res = await p.api.get(`/customers?${key}=1`);
      expectError(res, 400, 'INVALID_INPUT');
      expect(res.body.details.errors).toEqual([{ field: key, message: 'is not a query parameter of this operation' }]);
    }
  });
});

describe('compressed request bodies', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
  });

  it('refuses any Content-Encoding with 415 in the error body, and stores nothing', async () => {
    const body = JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Zip Person', platformCustomerId: 'zip-1' });
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(body)],
      ['gzip', Buffer.from(body)], // declared but not compressed: not taken as plain either
      ['deflate', Buffer.from(body)],
      ['br', Buffer.from(body)],
      ['x-custom, gzip', Buffer.from(body)],
    ] as const) {
      const res = await p.api.request('POST', '/customers', {
        rawBody: bytes,
        headers: { ...JSON_TYPE, 'content-encoding': encoding },
      });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(res.body.details.errors).toEqual([{ field: 'Content-Encoding', message: 'must be absent (or identity)' }]);
      expect(res.headers.get('accept-encoding')).toBe('identity');
      expect(res.headers.get('x-should-retry')).toBe('false');
    }
    expect((await p.api.get('/customers', { query: { platformCustomerId: 'zip-1' } })).body.totalCount).toBe(0);
    const identity = await p.api.request('POST', '/customers', {
      rawBody: body,
      headers: { ...JSON_TYPE, 'content-encoding': 'identity' },
    });
    expect(identity.status, identity.text).toBe(201);
  });
});
