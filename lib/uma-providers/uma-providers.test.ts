import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform, type Json } from '@/tests/support/api';
import { umaProviders } from './catalog';

type Row = Json;
const names = (rows: Row[]) => rows.map((r) => r.name);

describe('GET /uma-providers', () => {
  let p: TestPlatform;
  const all = umaProviders();
  beforeAll(async () => {
    p = await newPlatform();
  });

  it('lists providers newest first with regions, currencies and allow-list status', async () => {
    const res = await p.api.get('/uma-providers');
    expect(res.status, res.text).toBe(200);
    expect(res.body.totalCount).toBe(all.length);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.data[0]).toEqual({
      name: 'Corridor Sandbox',
      supportedRegions: ['US', 'MX', 'DE', 'FR', 'ES', 'IT', 'NL'],
      domain: 'sandbox.uma.money',
      supportedCurrencies: [
        { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
        { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
        { code: 'MXN', name: 'Mexican Peso', symbol: 'MX$', decimals: 2 },
      ],
      allowListStatus: true,
    });
    expect(res.body.data.at(-1)).toMatchObject({
      name: 'Lightspark Group',
      domain: 'uma.me',
      logoUrl: 'https://uma.me/logo.png',
      allowListStatus: true,
    });
    const asc = await p.api.get('/uma-providers', { query: { sortOrder: 'asc' } });
    expect(names(asc.body.data)).toEqual([...names(res.body.data)].reverse());
  });

  it('filters by country, by currency and by allow-list status', async () => {
    const ng = await p.api.get('/uma-providers', { query: { countryCode: 'NG' } });
    expect(names(ng.body.data)).toEqual(['Bitnob']);
    expect(ng.body.totalCount).toBe(1);
    const brl = await p.api.get('/uma-providers', { query: { currencyCode: 'brl' } });
    expect(names(brl.body.data)).toEqual(['Ripio', 'Foxbit']);
    const usOnlyAllowed = await p.api.get('/uma-providers', {
      query: { countryCode: 'US', hasBlockedProviders: false },
    });
    expect(names(usOnlyAllowed.body.data)).toEqual(['Corridor Sandbox', 'Lightspark Group']);
    const usAll = await p.api.get('/uma-providers', { query: { countryCode: 'US', hasBlockedProviders: true } });
    expect(names(usAll.body.data)).toEqual(['Corridor Sandbox', 'Zero Hash', 'Bakkt', 'Lightspark Group']);
    const allowed = await p.api.get('/uma-providers', { query: { hasBlockedProviders: false } });
    expect(allowed.body.data.every((r: Row) => r.allowListStatus)).toBe(true);
    expect(allowed.body.totalCount).toBe(all.filter((x) => x.allowListed).length);
    const none = await p.api.get('/uma-providers', { query: { countryCode: 'JP' } });
    expect(none.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('pages with limit and cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await p.api.get('/uma-providers', { query: { limit: 2, cursor } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.totalCount).toBe(all.length);
      seen.push(...names(res.body.data));
      cursor = res.body.nextCursor;
      expect(Boolean(cursor)).toBe(res.body.hasMore);
    } while (cursor);
    expect(seen).toEqual(names((await p.api.get('/uma-providers', { query: { limit: 100 } })).body.data));
    expect(seen).toHaveLength(all.length);
  });

  it('refuses malformed filters', async () => {
    expectError(await p.api.get('/uma-providers', { query: { countryCode: 'USA' } }), 400, 'INVALID_INPUT');
    expectError(await p.api.get('/uma-providers', { query: { currencyCode: 'XYZ' } }), 400, 'INVALID_CURRENCY');
    expectError(await p.api.get('/uma-providers', { query: { hasBlockedProviders: 'yes' } }), 400, 'INVALID_INPUT');
    expectError(await p.api.get('/uma-providers', { query: { sortOrder: 'newest' } }), 400, 'INVALID_INPUT');
    expectError(await p.api.get('/uma-providers', { query: { cursor: 'abc' } }), 400, 'INVALID_INPUT');
  });

  it('needs the VIEW permission', async () => {
    expect((await (await p.withPermissions('VIEW')).get('/uma-providers')).status).toBe(200);
    expectError(await (await p.withPermissions('TRANSACT')).get('/uma-providers'), 403, 'FORBIDDEN');
  });
});
