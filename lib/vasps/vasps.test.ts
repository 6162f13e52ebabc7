import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { findVasp, VASPS } from './catalog';

describe('GET /vasps', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
  });

  it('is a directory of well-known VASPs, alphabetical, names unique, each with its https site', () => {
    expect(VASPS.length).toBeGreaterThanOrEqual(25);
    const names = VASPS.map((v) => v.vaspName.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort((a, b) => a.localeCompare(b, 'en'))).toEqual(names);
    for (const v of VASPS) expect(new URL(v.url).protocol).toBe('https:');
    expect(findVasp(' kraken ')).toEqual({ vaspName: 'Kraken', url: 'https://www.kraken.com' });
    expect(findVasp('Not An Exchange')).toBeUndefined();
  });

  it('pages with limit (default 20) and cursor until hasMore is false', async () => {
    const first = await p.api.get('/vasps');
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    expect(first.body).not.toHaveProperty('totalCount');
    expect(first.body.data[0]).toEqual({ vaspName: VASPS[0].vaspName, url: VASPS[0].url });

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await p.api.get('/vasps', { query: { limit: 7, cursor } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(7);
      seen.push(...res.body.data.map((v: { vaspName: string }) => v.vaspName));
      cursor = res.body.nextCursor;
      expect(Boolean(cursor)).toBe(res.body.hasMore);
      pages++;
    } while (cursor);
    expect(seen).toEqual(VASPS.map((v) => v.vaspName));
    expect(pages).toBe(Math.ceil(VASPS.length / 7));

    const all = await p.api.get('/vasps', { query: { limit: 100 } });
    expect(all.body).toEqual({ data: VASPS, hasMore: false });
  });

  it('refuses a bad limit or a cursor it did not issue', async () => {
    for (const limit of [0, 101, 'ten'])
      expectError(await p.api.get('/vasps', { query: { limit } }), 400, 'INVALID_INPUT');
    const bad = await p.api.get('/vasps', { query: { cursor: 'not-a-cursor' } });
    expectError(bad, 400, 'INVALID_INPUT');
    expect(bad.body.details.errors[0].field).toBe('cursor');
  });

  it('needs the VIEW permission', async () => {
    expect((await (await p.withPermissions('VIEW')).get('/vasps')).status).toBe(200);
    expectError(await (await p.withPermissions('MANAGE')).get('/vasps'), 403, 'FORBIDDEN');
  });
});
