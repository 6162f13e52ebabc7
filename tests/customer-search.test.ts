import { beforeAll, expect, it } from 'vitest';
import * as customers from '@/lib/customers/service';
import { business, individual } from '@/lib/customers/testing';
import { db } from '@/lib/core/db';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { planOf, statements } from '@/tests/support/sql-capture';

// The console's customer search: an id, platform customer id or email exactly, or the start of a
// name (an individual's, or a business's legal name), in any case — each through an index
// (migration 20261128300000_customer_search), not a read of every customer.
let p: TestPlatform;
const made: Record<string, string> = {};
beforeAll(async () => {
  p = await newPlatform();
  const grace = await p.api.post(
    '/customers',
    individual('Grace Hopper', { platformCustomerId: 'gh-1', email: 'Grace.Hopper@Example.com' }),
  );
  expect(grace.status, grace.text).toBe(201);
  made.grace = grace.body.id;
  const ada = await p.api.post('/customers', individual('Ada Lovelace', { platformCustomerId: 'al-1' }));
  expect(ada.status, ada.text).toBe(201);
  made.ada = ada.body.id;
  const acme = await p.api.post('/customers', business('SEARCH-1', { platformCustomerId: 'acme-1' }));
  expect(acme.status, acme.text).toBe(201);
  made.acme = acme.body.id;
  // Other customers of the platform, so that reading them all would show in the plan's cost.
  const columns = (
    await db().$queryRawUnsafe<{ name: string }[]>(
      `SELECT column_name AS name FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name = 'Customer' AND is_generated = 'NEVER'`,
    )
  ).map((c) => `"${c.name}"`);
  const changed: Record<string, string> = {
    '"id"': `c."id" || '-' || g`,
    '"platformCustomerId"': `'crowd-' || g`,
    '"umaAddress"': `'$crowd' || g || '@x'`,
    '"fullName"': `'Crowd ' || g`,
    '"email"': `'crowd' || g || '@example.com'`,
  };
  await db().$executeRawUnsafe(
    `INSERT INTO "Customer" (${columns.join(', ')})
     SELECT ${columns.map((c) => changed[c] ?? `c.${c}`).join(', ')}
     FROM "Customer" c, generate_series(1, 3000) g WHERE c."id" = $1`,
    made.ada,
  );
  await db().$executeRawUnsafe('ANALYZE "Customer"');
});

const search = async (q: string) =>
  (await customers.list(p.platformId, { search: q }, 25)).data
    .map((c) => c.id)
    .filter((id) => !/^Customer:[0-9a-f-]{36}-\d+$/.test(id)); // not the crowd

it('finds by id, platform customer id, email in any case, and the start of a name in any case', async () => {
  expect(await search(made.grace)).toEqual([made.grace]);
  expect(await search('al-1')).toEqual([made.ada]);
  expect(await search('grace.hopper@example.COM')).toEqual([made.grace]);
  expect(await search('grace.hop')).toEqual([]); // an email is matched whole
  expect(await search('gRaCe h')).toEqual([made.grace]);
  expect(await search('acme')).toEqual([made.acme]); // the business's legal name
  expect(await search('Hopper')).toEqual([]); // the start of the name only
  expect(await search('nobody at all')).toEqual([]);
});

it('reads the matches through indexes, never every customer', async () => {
  const { sent } = await statements(() => customers.list(p.platformId, { search: 'Grace' }, 25));
  const page = sent.find((s) => /FROM "public"\."Customer"/.test(s.text) && /ORDER BY/.test(s.text));
  expect(page).toBeDefined();
  const plan = await planOf(page!, { bitmap: true });
  expect(plan).not.toMatch(/Seq Scan/);
  expect(plan).toMatch(/Customer_platformId_searchName_idx/);
});
