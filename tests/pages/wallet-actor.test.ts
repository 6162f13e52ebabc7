import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { db } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { advance, newWallet } from '@/lib/wallet-auth/testing/flows';
import { Api, newPlatform, type TestPlatform } from '@/tests/support/api';
import { current, CookieJar } from './cookie-jar';
import { json, request, signIn } from './wallet-client';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// Issue 23, finding 3: the wallet pages acted through an API token of their own ("Wallet pages
// (server side)"); deleting it through DELETE /tokens/{id} left every sign-in answering 500 for
// good. They now act as an internal actor that no API call can see, delete or change.
const { GET: me } = await import('@/app/wallet/api/me/route');
const { POST: start } = await import('@/app/wallet/api/sign-in/start/route');
const { walletRoute } = await import('@/app/wallet/_server/http');

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
  process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId;
});
beforeEach(() => {
  current.jar = new CookieJar();
});

async function allTokens(api: Api): Promise<{ id: string; name: string }[]> {
  const out: { id: string; name: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.get('/tokens', { query: { limit: 100, cursor } });
    expect(page.status, page.text).toBe(200);
    out.push(...page.body.data);
    cursor = page.body.hasMore ? page.body.nextCursor : undefined;
  } while (cursor);
  return out;
}

it('the migration revokes the wallet token earlier versions issued; the pages do not need it', async () => {
  const at = new Date();
  const old = (n: number, deletedAt: Date | null) => ({
    id: `Token:00000000-0000-4000-8000-00000000000${n}`,
    platformId: p.platformId,
    name: 'Wallet pages (server side)',
    permissions: ['VIEW', 'TRANSACT', 'MANAGE'],
    clientId: `wallet-pages-${p.platformId.slice(-12)}${n}`,
    secretHash: 'x',
    secretHashVersion: 2,
    createdAt: at,
    updatedAt: at,
    deletedAt,
  });
  await db().apiToken.createMany({ data: [old(1, null), old(2, at)] });
  const sql = readFileSync(
    path.join(process.cwd(), 'prisma/migrations/20261129100000_wallet_pages_actor/migration.sql'),
    'utf8',
  );
  await db().$executeRawUnsafe(sql);
  const rows = await db().apiToken.findMany({ where: { id: { in: [old(1, null).id, old(2, null).id] } } });
  expect(rows.every((r) => r.deletedAt !== null)).toBe(true);
  expect(rows.find((r) => r.id === old(2, null).id)!.deletedAt).toEqual(at);
  // Other tokens are untouched.
  expect((await p.api.get('/tokens')).status).toBe(200);
  const w = await newWallet(p);
  await signIn(w.email);
});

it('a wallet route answers any failure as JSON in the error body, never a bare 500', async () => {
  const boom = walletRoute(async (_req: Request) => {
    throw new Error('connection reset by a test');
  });
  const res = await boom(request('GET', '/me'));
  expect(res.status).toBe(500);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(await res.json()).toEqual({
    status: 500,
    code: 'INTERNAL_ERROR',
    message: 'Internal error; the request was not completed',
  });
  const refused = walletRoute(async (_req: Request) => {
    throw new DomainError('RATE_LIMITED', 'slow down');
  });
  expect(await json(await refused(request('GET', '/me')))).toEqual({
    status: 429,
    body: { status: 429, code: 'RATE_LIMITED', message: 'slow down' },
  });

  // A platform that does not exist: 503 with the error body.
  process.env.CORRIDOR_WALLET_PLATFORM_ID = 'Platform:00000000-0000-4000-8000-000000000000';
  try {
    const res = await json(
      await start(request('POST', '/sign-in/start', { email: 'a@example.com', method: 'EMAIL_OTP' })),
    );
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  } finally {
    process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId;
  }
});

// Last: it leaves the platform one token.
it('deleting every token through the API leaves the wallet sign-in working', async () => {
  const w = await newWallet(p);
  await signIn(w.email);
  const admin = await p.withPermissions('VIEW', 'TRANSACT', 'MANAGE');
  const own = (await allTokens(admin)).filter((t) => t.name === 'test VIEW+TRANSACT+MANAGE');
  for (const t of await allTokens(admin)) {
    if (own.some((o) => o.id === t.id)) continue;
    const deleted = await admin.delete(`/tokens/${t.id}`);
    expect(deleted.status, deleted.text).toBe(204);
  }
  expect((await allTokens(admin)).map((t) => t.id)).toEqual(own.map((t) => t.id));

  await advance(p, 31); // past the code's resend interval
  await signIn(w.email);
  const mine = await json(await me());
  expect(mine.status, JSON.stringify(mine.body)).toBe(200);
  expect(mine.body).toMatchObject({ signedIn: true, customer: { id: w.customerId }, walletAccountId: w.accountId });
  // The pages never showed up as a token either.
  expect((await allTokens(admin)).some((t) => /wallet/i.test(t.name))).toBe(false);
});
