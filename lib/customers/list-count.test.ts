import { describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { newPlatform } from '@/tests/support/api';
import * as customers from './service';

// The customer and internal-account lists answer totalCount from counters kept with the rows
// (lib/core/list.ts, ListCount): right after creations and deletions, with and without deleted
// customers; with other filters the count is exact for those filters.
describe('customer list counts', () => {
  it('follow creations and deletions, and every filter counts exactly', async () => {
    const p = await newPlatform();
    const ids: string[] = [];
    for (const name of ['Ada Count', 'Bo Count', 'Cy Count']) {
      const r = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: name, currencies: ['USD'] });
      expect(r.status, r.text).toBe(201);
      ids.push(r.body.id);
    }
    const biz = await p.api.post('/customers', {
      customerType: 'BUSINESS',
      businessInfo: { legalName: 'Count Ltd', country: 'US', incorporatedOn: '2020-01-01', taxId: '12-3456789' },
      currencies: ['USD'],
    });
    expect(biz.status, biz.text).toBe(201);
    const total = async (query: Record<string, string | number | boolean> = {}) => {
      const r = await p.api.get('/customers', { query: { limit: 1, ...query } });
      expect(r.status, r.text).toBe(200);
      return r.body.totalCount as number;
    };
    expect(await total()).toBe(4);
    expect(await total({ customerType: 'BUSINESS' })).toBe(1);
    expect((await p.api.delete(`/customers/${ids[0]}`)).status).toBe(200);
    expect(await total()).toBe(3);
    // The console lists deleted customers too (no API parameter): the 'all' counter.
    expect((await customers.list(p.platformId, { includeDeleted: true }, 1)).totalCount).toBe(4);
    expect(await total({ customerType: 'INDIVIDUAL' })).toBe(2);
    // Paging the whole list sees exactly the counted rows.
    let cursor: string | undefined;
    const seen: string[] = [];
    do {
      const r = await p.api.get('/customers', { query: { limit: 1, cursor } });
      seen.push(...r.body.data.map((c: { id: string }) => c.id));
      expect(r.body.totalCount).toBe(3);
      cursor = r.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(3);
    // Internal accounts: the customers' accounts counted by trigger equal the rows.
    const accounts = await p.api.get('/customers/internal-accounts', { query: { limit: 1 } });
    const rows = await db().internalAccount.count({ where: { platformId: p.platformId, customerId: { not: null } } });
    expect(accounts.body.totalCount).toBe(rows);
  });

  it('finds a customer by UMA address in any case', async () => {
    const p = await newPlatform();
    const r = await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Uma Case',
      umaAddress: '$uma.case@sandbox.uma.money',
    });
    expect(r.status, r.text).toBe(201);
    const found = await p.api.get('/customers', { query: { umaAddress: '$UMA.Case@Sandbox.uma.money' } });
    expect(found.body.data.map((c: { id: string }) => c.id)).toEqual([r.body.id]);
    expect(found.body.totalCount).toBe(1);
  });
});
