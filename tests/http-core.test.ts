import { beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT } from '@/lib/http/body';
import { Api, basic, expectError, newPlatform, type TestPlatform } from './support/api';

// The wrapper's promises, seen from a client: authentication, errors in one shape, malformed
// input is a 4xx, unknown routes and methods answer JSON, idempotency keys.
let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

describe('authentication', () => {
  it('refuses missing, malformed and wrong credentials with 401 UNAUTHORIZED', async () => {
    expectError(await p.api.get('/config', { authorization: null }), 401, 'UNAUTHORIZED');
    expectError(await p.api.get('/config', { authorization: 'Bearer abc' }), 401, 'UNAUTHORIZED');
    expectError(await p.api.get('/config', { authorization: 'Basic !!!' }), 401, 'UNAUTHORIZED');
    expectError(
      await p.api.get('/config', {
        authorization: basic({ clientId: p.credentials.clientId, clientSecret: 'wrong' }),
      }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await p.api.get('/config', {
        authorization: basic({ clientId: 'nobody', clientSecret: p.credentials.clientSecret }),
      }),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('routing', () => {
  it('answers unknown routes under the base path with a JSON 404', async () => {
    const res = await p.api.get('/no-such-thing/at/all');
    expectError(res, 404, 'REFERENCE_NOT_FOUND');
    expectError(await p.api.post('/nope', { a: 1 }), 404, 'REFERENCE_NOT_FOUND');
  });

  it('answers an unsupported method on a known path with a JSON 405 and Allow', async () => {
    const res = await p.api.put('/config', {});
    expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toBe('GET, PATCH');
  });
});

describe('malformed input', () => {
  it('answers malformed JSON with 400', async () => {
    const res = await p.api.request('PATCH', '/config', {
      rawBody: '{"umaDomain": ',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.message).toMatch(/Malformed JSON/);
  });

  it('answers duplicate keys in JSON with 400', async () => {
    const res = await p.api.request('PATCH', '/config', {
      rawBody: '{"umaDomain":"a.com","umaDomain":"b.com"}',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'INVALID_INPUT');
  });

  it('answers a wrong content type with 400', async () => {
    const res = await p.api.request('PATCH', '/config', {
      rawBody: 'umaDomain=a.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.message).toMatch(/Content-Type/);
  });

  it('answers an oversized body with 400 without reading it all', async () => {
    const big = JSON.stringify({ umaDomain: 'a'.repeat(JSON_BODY_LIMIT + 10) });
    const res = await p.api.request('PATCH', '/config', {
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.message).toMatch(/larger than/);
  });

  it('answers a JSON body of the wrong type with field errors', async () => {
    expectError(
      await p.api.request('PATCH', '/config', { rawBody: '[1,2]', headers: { 'content-type': 'application/json' } }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await p.api.request('POST', '/tokens', { rawBody: '', headers: { 'content-type': 'application/json' } }),
      400,
      'INVALID_INPUT',
    );
  });
});

describe('Idempotency-Key', () => {
  it('returns the first response again for a repeated key', async () => {
    const key = crypto.randomUUID();
    const first = await p.api.post(
      '/tokens',
      { name: 'idem', permissions: ['VIEW'] },
      { headers: { 'idempotency-key': key } },
    );
    expect(first.status).toBe(201);
    const second = await p.api.post(
      '/tokens',
      { name: 'idem', permissions: ['VIEW'] },
      { headers: { 'idempotency-key': key } },
    );
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const list = await p.api.get('/tokens', { query: { name: 'idem' } });
    expect(list.body.totalCount).toBe(1);
    // The same request re-serialised (other key order, spacing) is the same request.
    const reordered = await p.api.request('POST', '/tokens', {
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      rawBody: '{ "permissions" : ["VIEW"],\n "name": "idem" }',
    });
    expect(reordered.status, reordered.text).toBe(201);
    expect(reordered.text).toBe(first.text);
  });

  it('refuses the same key with a different body', async () => {
    const key = crypto.randomUUID();
    expect(
      (await p.api.post('/tokens', { name: 'a', permissions: ['VIEW'] }, { headers: { 'idempotency-key': key } }))
        .status,
    ).toBe(201);
    const res = await p.api.post(
      '/tokens',
      { name: 'b', permissions: ['VIEW'] },
      { headers: { 'idempotency-key': key } },
    );
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.message).toMatch(/Idempotency-Key/);
  });

  it('executes concurrent duplicates once', async () => {
    const q = await newPlatform();
    const key = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        q.api.post('/tokens', { name: 'concurrent', permissions: ['VIEW'] }, { headers: { 'idempotency-key': key } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    const list = await q.api.get('/tokens', { query: { name: 'concurrent' } });
    expect(list.body.totalCount).toBe(1);
  });

  it('scopes keys per platform', async () => {
    const q = await newPlatform();
    const key = crypto.randomUUID();
    const a = await p.api.post(
      '/tokens',
      { name: 'scoped', permissions: ['VIEW'] },
      { headers: { 'idempotency-key': key } },
    );
    const b = await q.api.post(
      '/tokens',
      { name: 'scoped', permissions: ['VIEW'] },
      { headers: { 'idempotency-key': key } },
    );
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('rejects an unusable key', async () => {
    expectError(
      await p.api.post(
        '/tokens',
        { name: 'x', permissions: ['VIEW'] },
        { headers: { 'idempotency-key': 'x'.repeat(300) } },
      ),
      400,
      'INVALID_INPUT',
    );
  });
});

describe('OpenAPI document', () => {
  it('serves its own document generated from the endpoint schemas', async () => {
    const res = await new Api().get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.paths['/tokens'].post.requestBody.content['application/json'].schema.required).toEqual([
      'name',
      'permissions',
    ]);
    expect(res.body.paths['/config'].patch['x-required-permission']).toBe('MANAGE');
    const money =
      res.body.paths['/config'].get.responses['200'].content['application/json'].schema.properties.supportedCurrencies
        .items.properties.maxAmount;
    expect(money).toEqual({ type: 'integer', format: 'int64' });
  });
});
