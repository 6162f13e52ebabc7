import { beforeAll, expect, it } from 'vitest';
import { Api, expectError, newPlatform, type TestPlatform } from '@/tests/support/api';

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

it('creates a token whose secret is shown once and which authenticates', async () => {
  const res = await p.api.post('/tokens', { name: 'reporting', permissions: ['VIEW'] });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ name: 'reporting', permissions: ['VIEW'] });
  expect(res.body.id).toMatch(/^Token:[0-9a-f-]{36}$/);
  expect(typeof res.body.clientSecret).toBe('string');

  const viewer = new Api({ clientId: res.body.clientId, clientSecret: res.body.clientSecret });
  expect((await viewer.get('/config')).status).toBe(200);
  // The token id also works as the Basic username (the interface names it `<api token id>`).
  const byId = new Api({ clientId: res.body.id, clientSecret: res.body.clientSecret });
  expect((await byId.get('/config')).status).toBe(200);

  const fetched = await p.api.get(`/tokens/${res.body.id}`);
  expect(fetched.status).toBe(200);
  expect(fetched.body.clientSecret).toBeUndefined();
});

it('enforces permissions per operation: VIEW cannot manage', async () => {
  const viewer = await p.withPermissions('VIEW');
  expectError(await viewer.post('/tokens', { name: 'x', permissions: ['MANAGE'] }), 403, 'FORBIDDEN');
  expectError(await viewer.patch('/config', { umaDomain: 'pay.example.com' }), 403, 'FORBIDDEN');
  const manager = await p.withPermissions('MANAGE');
  expectError(await manager.get('/tokens'), 403, 'FORBIDDEN');
});

it('grants at most the permissions the creating token holds', async () => {
  const manager = await p.withPermissions('MANAGE');
  const wider = await manager.post('/tokens', { name: 'escalate', permissions: ['VIEW', 'TRANSACT', 'MANAGE'] });
  expectError(wider, 403, 'FORBIDDEN');
  expect(wider.body.message).toMatch(/VIEW, TRANSACT/);
  expectError(await manager.post('/tokens', { name: 'escalate', permissions: ['TRANSACT'] }), 403, 'FORBIDDEN');
  // Nothing was created by the refusals: the all-permission token lists no such token.
  const listed = await p.api.get('/tokens', { query: { name: 'escalate' } });
  expect(listed.status).toBe(200);
  expect(listed.body.data).toEqual([]);

  const same = await manager.post('/tokens', { name: 'peer', permissions: ['MANAGE'] });
  expect(same.status, same.text).toBe(201);
  expect(same.body.permissions).toEqual(['MANAGE']);
  const both = await p.withPermissions('VIEW', 'MANAGE');
  const fewer = await both.post('/tokens', { name: 'reader', permissions: ['VIEW'] });
  expect(fewer.status, fewer.text).toBe(201);
  expect(fewer.body.permissions).toEqual(['VIEW']);
  expectError(await both.post('/tokens', { name: 'mover', permissions: ['TRANSACT'] }), 403, 'FORBIDDEN');
});

it('validates the body with field errors', async () => {
  const res = await p.api.post('/tokens', { name: '', permissions: ['ROOT'] });
  expectError(res, 400, 'INVALID_INPUT');
  const fields = res.body.details.errors.map((e: { field: string }) => e.field).sort();
  expect(fields).toEqual(['name', 'permissions[0]']);
  expect(res.body.details.errors.find((e: { field: string }) => e.field === 'permissions[0]').constraint).toEqual({
    enum: ['VIEW', 'TRANSACT', 'MANAGE'],
  });
});

it('lists with cursor pagination in a stable order', async () => {
  const q = await newPlatform();
  for (let i = 0; i < 5; i++)
    expect((await q.api.post('/tokens', { name: `t${i}`, permissions: ['VIEW'] })).status).toBe(201);
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const res = await q.api.get('/tokens', { query: { limit: 2, cursor } });
    expect(res.status).toBe(200);
    expect(res.body.totalCount).toBe(6); // five plus the test's own token
    expect(res.body.data.length).toBeLessThanOrEqual(2);
    seen.push(...res.body.data.map((t: { id: string }) => t.id));
    cursor = res.body.hasMore ? res.body.nextCursor : undefined;
    if (res.body.hasMore) expect(typeof res.body.nextCursor).toBe('string');
    pages++;
  } while (cursor);
  expect(pages).toBe(3);
  expect(new Set(seen).size).toBe(6);
  expectError(await q.api.get('/tokens', { query: { limit: 0 } }), 400, 'INVALID_INPUT');
  expectError(await q.api.get('/tokens', { query: { limit: 101 } }), 400, 'INVALID_INPUT');
  expectError(await q.api.get('/tokens', { query: { cursor: 'not-a-cursor' } }), 400, 'INVALID_INPUT');
});

it('deletes a token so it stops authenticating; unknown ids are 404', async () => {
  const made = await p.api.post('/tokens', { name: 'temp', permissions: ['VIEW'] });
  const temp = new Api({ clientId: made.body.clientId, clientSecret: made.body.clientSecret });
  expect((await temp.get('/config')).status).toBe(200);
  expect((await p.api.delete(`/tokens/${made.body.id}`)).status).toBe(204);
  expectError(await temp.get('/config'), 401, 'UNAUTHORIZED');
  expectError(await p.api.get(`/tokens/${made.body.id}`), 404, 'TOKEN_NOT_FOUND');
  expectError(await p.api.delete(`/tokens/${made.body.id}`), 404, 'TOKEN_NOT_FOUND');
  expectError(await p.api.get('/tokens/Token:00000000-0000-0000-0000-000000000000'), 404, 'TOKEN_NOT_FOUND');
});

it('refuses a token deleting itself', async () => {
  const self = await p.api.get('/tokens', { query: { name: 'test' } });
  const ownId = self.body.data[0].id;
  expectError(await p.api.delete(`/tokens/${ownId}`), 400, 'INVALID_INPUT');
});

it("cannot see another platform's tokens", async () => {
  const other = await newPlatform();
  const made = await other.api.post('/tokens', { name: 'theirs', permissions: ['VIEW'] });
  expectError(await p.api.get(`/tokens/${made.body.id}`), 404, 'TOKEN_NOT_FOUND');
});
