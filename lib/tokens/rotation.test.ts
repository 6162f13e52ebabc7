import { beforeAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { Api, expectError, newPlatform, type Json, type TestPlatform } from '@/tests/support/api';
import { advance } from '@/tests/support/money';

// POST /tokens/{id}/rotate (our extension): a new secret shown once; the replaced one keeps
// working for an overlap window on the platform's clock (default 24 h, shorter on request, 0 =
// at once), then stops — in every process, cached or not.
let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

async function token(permissions = ['VIEW']): Promise<{ id: string; api: Api; body: Json }> {
  const made = await p.api.post('/tokens', { name: 'rotating', permissions });
  expect(made.status, made.text).toBe(201);
  return {
    id: made.body.id,
    api: new Api({ clientId: made.body.clientId, clientSecret: made.body.clientSecret }),
    body: made.body,
  };
}

const secretOf = (t: { body: Json }, clientSecret: string) => new Api({ clientId: t.body.clientId, clientSecret });
const works = async (api: Api) => (await api.get('/config')).status === 200;

it('the old secret keeps working through the default 24 h window, then stops', async () => {
  const t = await token();
  expect(await works(t.api)).toBe(true); // and is cached now
  const res = await p.api.post(`/tokens/${t.id}/rotate`);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ id: t.id, name: 'rotating', permissions: ['VIEW'], clientId: t.body.clientId });
  expect(res.body.clientSecret).not.toBe(t.body.clientSecret);
  expect(Date.parse(res.body.previousSecretExpiresAt) - Date.parse(res.body.updatedAt)).toBe(24 * 3600 * 1000);
  const fresh = secretOf(t, res.body.clientSecret);
  expect(await works(fresh)).toBe(true);
  expect(await works(t.api)).toBe(true);
  // Shown once: never in a read, and stored hashed only.
  expect((await p.api.get(`/tokens/${t.id}`)).body.clientSecret).toBeUndefined();
  const row = await db().apiToken.findUnique({ where: { id: t.id } });
  expect(JSON.stringify(row)).not.toContain(res.body.clientSecret);
  expect(JSON.stringify(row)).not.toContain(t.body.clientSecret);
  expect(row!.rotatedAt).toEqual(new Date(res.body.updatedAt));

  await advance(p, 24 * 3600 - 60);
  expect(await works(t.api)).toBe(true);
  await advance(p, 61);
  expectError(await t.api.get('/config'), 401, 'UNAUTHORIZED');
  expect(await works(fresh)).toBe(true);
});

it('a shorter window, and 0 revokes the old secret at once even where it was cached', async () => {
  const t = await token();
  const short = await p.api.post(`/tokens/${t.id}/rotate`, { overlapSeconds: 120 });
  expect(short.status, short.text).toBe(200);
  expect(Date.parse(short.body.previousSecretExpiresAt) - Date.parse(short.body.updatedAt)).toBe(120_000);
  await advance(p, 121);
  expectError(await t.api.get('/config'), 401, 'UNAUTHORIZED');

  const second = secretOf(t, short.body.clientSecret);
  expect(await works(second)).toBe(true);
  const now = await p.api.post(`/tokens/${t.id}/rotate`, { overlapSeconds: 0 });
  expect(now.status, now.text).toBe(200);
  expect(now.body.previousSecretExpiresAt).toBeNull();
  expectError(await second.get('/config'), 401, 'UNAUTHORIZED');
  expect(await works(secretOf(t, now.body.clientSecret))).toBe(true);
});

it('the window ends on time for a secret in use: a rotated-out secret is never served from a cache', async () => {
  const t = await token();
  const res = await p.api.post(`/tokens/${t.id}/rotate`, { overlapSeconds: 3600 });
  expect(res.status, res.text).toBe(200);
  expect(await works(t.api)).toBe(true);
  // The window running out as time passes (no write that would drop caches).
  await db().apiToken.update({ where: { id: t.id }, data: { previousSecretExpiresAt: new Date(0) } });
  expectError(await t.api.get('/config'), 401, 'UNAUTHORIZED');
});

it('one replaced secret at a time: rotating again within the window ends the earlier one', async () => {
  const t = await token();
  const first = await p.api.post(`/tokens/${t.id}/rotate`);
  const second = await p.api.post(`/tokens/${t.id}/rotate`);
  expect([first.status, second.status]).toEqual([200, 200]);
  expectError(await t.api.get('/config'), 401, 'UNAUTHORIZED');
  expect(await works(secretOf(t, first.body.clientSecret))).toBe(true);
  expect(await works(secretOf(t, second.body.clientSecret))).toBe(true);
});

it('a token may rotate its own secret; it keeps the token id as Basic username too', async () => {
  const t = await token(['VIEW', 'MANAGE']);
  const res = await t.api.post(`/tokens/${t.id}/rotate`, { overlapSeconds: 0 });
  expect(res.status, res.text).toBe(200);
  expectError(await t.api.get('/config'), 401, 'UNAUTHORIZED');
  expect(await works(new Api({ clientId: t.id, clientSecret: res.body.clientSecret }))).toBe(true);
});

it('an Idempotency-Key replays the first rotation rather than rotating twice', async () => {
  const t = await token();
  const headers = { 'idempotency-key': `rotate-${t.id}` };
  const first = await p.api.post(`/tokens/${t.id}/rotate`, { overlapSeconds: 60 }, { headers });
  const again = await p.api.post(`/tokens/${t.id}/rotate`, { overlapSeconds: 60 }, { headers });
  expect([first.status, again.status]).toEqual([200, 200]);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body).toEqual(first.body);
  // Still the first rotation's state: the original secret is in its window.
  expect(await works(t.api)).toBe(true);
  const other = await p.api.post(`/tokens/${t.id}/rotate`, { overlapSeconds: 0 }, { headers });
  expect(other.status).toBeGreaterThanOrEqual(400);
  expect(await works(t.api)).toBe(true);
});

it('refuses bad windows and unknown or deleted tokens', async () => {
  const t = await token();
  for (const overlapSeconds of [-1, 1.5, 30 * 24 * 3600 + 1, '60']) {
    const res = await p.api.post(`/tokens/${t.id}/rotate`, { overlapSeconds });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors[0].field).toBe('overlapSeconds');
  }
  expect(await works(t.api)).toBe(true);
  expectError(await p.api.post('/tokens/Token:00000000-0000-0000-0000-000000000000/rotate'), 404, 'TOKEN_NOT_FOUND');
  expect((await p.api.delete(`/tokens/${t.id}`)).status).toBe(204);
  expectError(await p.api.post(`/tokens/${t.id}/rotate`), 404, 'TOKEN_NOT_FOUND');
  const other = await newPlatform();
  const theirs = await other.api.post('/tokens', { name: 'theirs', permissions: ['VIEW'] });
  expectError(await p.api.post(`/tokens/${theirs.body.id}/rotate`), 404, 'TOKEN_NOT_FOUND');
});

it('the served OpenAPI document flags the operation as an extension', async () => {
  const doc = await p.api.get('/openapi.json');
  const op = doc.body.paths['/tokens/{tokenId}/rotate'].post;
  expect(op['x-corridor-extension']).toBe(true);
});
