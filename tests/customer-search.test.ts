import { beforeAll, expect, it } from 'vitest';
import * as customers from '@/lib/customers/service';
import { business, individual } from '@/lib/customers/testing';
import { db } from '@/lib/core/db';
import { newPlatform, type TestPlatform } from '@/tests/support/api';

// The console's customer search: an id or platform customer id exactly, or any part of the email
// or of the name (an individual's, or a business's legal name), in any case — each through an
// index (migrations 20261128300000_customer_search, 20261201200000_console_search), not a read of
// every customer. tests/console-search.test.ts holds the plan at 100k customers.
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

it('finds by id, platform customer id, any part of the email or the name, in any case', async () => {
  expect(await search(made.grace)).toEqual([made.grace]);
  expect(await search('al-1')).toEqual([made.ada]);
  expect(await search('grace.hopper@example.COM')).toEqual([made.grace]);
  expect(await search('grace.hop')).toEqual([made.grace]); // part of the email
  expect(await search('HOPPER@')).toEqual([made.grace]);
  expect(await search('gRaCe h')).toEqual([made.grace]);
  expect(await search('acme')).toEqual([made.acme]); // the business's legal name
  expect(await search('Hopper')).toEqual([made.grace]); // any word of the name
  expect(await search('lovelace')).toEqual([made.ada]);
  expect(await search('Gr')).toEqual([made.grace]); // under three characters: the start of a name
  expect(await search('op')).toEqual([]);
  expect(await search('nobody at all')).toEqual([]);
  // LIKE's wildcards typed in the box are searched for as themselves, not as "anything".
  expect(await search('%%%')).toEqual([]);
  expect(await search('___')).toEqual([]);
});
