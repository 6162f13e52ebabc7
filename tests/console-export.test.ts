import { beforeAll, expect, it, vi } from 'vitest';
import { db } from '@/lib/core/db';
import { business, individual } from '@/lib/customers/testing';
import type { StaffActor } from '@/lib/staff/roles';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { parseCsv, staffActor } from '@/tests/support/console-export';

// The console's CSV exports (app/console/export): the rows the list's filters select, for any
// signed-in staff member of the platform (viewers too, as for the list page) and no one else,
// each export audited with its filters. The session is the only thing stood in for: the route
// reads the real database through the real services.
let signedIn: StaffActor | null = null;
vi.mock('@/app/console/_lib/auth', () => ({ currentStaff: async () => signedIn }));
const { GET: exportCustomers } = await import('@/app/console/export/customers/route');

let p: TestPlatform;
let viewer: StaffActor;
let outsider: StaffActor;
const tag = `${process.pid}${Date.now()}`;

beforeAll(async () => {
  p = await newPlatform();
  viewer = await staffActor(p.platformId, 'viewer');
  outsider = await staffActor((await newPlatform()).platformId, 'admin');
  for (const body of [
    individual(`Ada ${tag}`, { platformCustomerId: `=ada-${tag}` }),
    individual(`Grace, "Amazing" ${tag}`, { platformCustomerId: `grace-${tag}` }),
    business(`REG-${tag}`, { platformCustomerId: `acme-${tag}` }),
  ]) {
    const res = await p.api.post('/customers', body);
    expect(res.status, res.text).toBe(201);
  }
});

const get = (query: string) => exportCustomers(new Request(`http://localhost/console/export/customers?${query}`));

it('a viewer downloads exactly the filtered customers, escaped and named by list and day', async () => {
  signedIn = viewer;
  const res = await get(`type=INDIVIDUAL&q=${tag}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toMatch(
    /^attachment; filename="corridor-customers-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  const [header, ...rows] = parseCsv(await res.text());
  expect(header.slice(0, 6)).toEqual(['Name', 'Type', 'Email', 'Status', 'Platform customer id', 'Customer id']);
  const listed = await p.api.get(`/customers?customerType=INDIVIDUAL&limit=100`);
  const mine = listed.body.data.filter((c: { fullName?: string }) => c.fullName?.endsWith(tag));
  expect(rows.map((r) => r[5])).toEqual(mine.map((c: { id: string }) => c.id));
  expect(rows.map((r) => r[0]).sort()).toEqual([`Ada ${tag}`, `Grace, "Amazing" ${tag}`]);
  // A value a spreadsheet would run as a formula comes out as text.
  expect(rows.map((r) => r[4])).toContain(`'=ada-${tag}`);
  expect(rows.every((r) => r[1] === 'INDIVIDUAL')).toBe(true);
});

it('the export is audited with its filters', async () => {
  signedIn = viewer;
  await (await get(`type=BUSINESS&q=${tag}`)).text();
  const entries = await db().staffAuditEntry.findMany({
    where: { platformId: p.platformId, staffUserId: viewer.staffUserId, action: 'list.export' },
  });
  expect(entries.map((e) => e.details)).toContainEqual({ list: 'customers', filters: { q: tag, type: 'BUSINESS' } });
});

it('signed out gets 401 and no file; another platform’s staff sees none of these customers', async () => {
  signedIn = null;
  const refused = await get('');
  expect(refused.status).toBe(401);
  expect(refused.headers.get('content-type')).not.toContain('text/csv');
  signedIn = outsider;
  const [, ...rows] = parseCsv(await (await get(`q=${tag}`)).text());
  expect(rows).toEqual([]);
});
