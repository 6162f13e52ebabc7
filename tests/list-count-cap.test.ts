import { afterEach, beforeAll, expect, it } from 'vitest';
import { business, individual } from '@/lib/customers/testing';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { statements } from '@/tests/support/sql-capture';

// A list's count stops at its cap (CORRIDOR_LIST_COUNT_CAP, 10,000 by default; 5 here): a filter
// matching more rows answers without totalCount rather than counting them all, carries "more than
// the cap" in its cursor (later pages count nothing), and one matching fewer is counted exactly.
// Counters kept with the rows (the unfiltered list) stay exact past the cap.
let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
  for (let i = 0; i < 7; i++) {
    const res = await p.api.post('/customers', individual(`Capped ${i}`, { platformCustomerId: `cap-${i}` }));
    expect(res.status, res.text).toBe(201);
  }
  const biz = await p.api.post('/customers', business('CAP-1', { platformCustomerId: 'cap-biz' }));
  expect(biz.status, biz.text).toBe(201);
});
afterEach(() => {
  delete process.env.CORRIDOR_LIST_COUNT_CAP;
});

const counts = (sent: { text: string }[]) => sent.filter((s) => /count\(/i.test(s.text) && /"Customer"/.test(s.text));

it('past the cap: no totalCount, a bounded count on the first page only, every row still reached', async () => {
  process.env.CORRIDOR_LIST_COUNT_CAP = '5';
  const first = await statements(() => p.api.get('/customers', { query: { customerType: 'INDIVIDUAL', limit: 3 } }));
  const page1 = first.result;
  expect(page1.status, page1.text).toBe(200);
  expect(page1.body.hasMore).toBe(true);
  expect(page1.body).not.toHaveProperty('totalCount');
  // The count is a bounded one: LIMIT cap + 1 inside.
  const [count] = counts(first.sent);
  expect(count?.text).toMatch(/LIMIT/i);
  expect(count.text).toMatch(/"Customer"/);
  const seen: string[] = page1.body.data.map((c: { id: string }) => c.id);
  let cursor = page1.body.nextCursor as string | undefined;
  while (cursor) {
    const next = await statements(() =>
      p.api.get('/customers', { query: { customerType: 'INDIVIDUAL', limit: 3, cursor } }),
    );
    expect(next.result.status, next.result.text).toBe(200);
    expect(next.result.body).not.toHaveProperty('totalCount');
    expect(counts(next.sent)).toEqual([]); // "more than the cap" travelled in the cursor
    seen.push(...next.result.body.data.map((c: { id: string }) => c.id));
    cursor = next.result.body.nextCursor;
  }
  expect(new Set(seen).size).toBe(7);
});

it('within the cap the count is exact; a counter kept with the rows is exact past it', async () => {
  process.env.CORRIDOR_LIST_COUNT_CAP = '5';
  const biz = await p.api.get('/customers', { query: { customerType: 'BUSINESS' } });
  expect(biz.status, biz.text).toBe(200);
  expect(biz.body.totalCount).toBe(1);
  const all = await p.api.get('/customers', { query: { limit: 2 } });
  expect(all.status, all.text).toBe(200);
  expect(all.body.totalCount).toBe(8);
  // The default cap counts all seven.
  delete process.env.CORRIDOR_LIST_COUNT_CAP;
  const individuals = await p.api.get('/customers', { query: { customerType: 'INDIVIDUAL' } });
  expect(individuals.body.totalCount).toBe(7);
});
