import { beforeAll, expect, it, vi } from 'vitest';
import { db } from '@/lib/core/db';
import { policy } from '@/lib/agents/testing';
import { activeCard, cardholder } from '@/lib/cards/testing';
import { setAgentPaused, setCardState } from '@/lib/staff/operations';
import type { StaffActor } from '@/lib/staff/roles';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { csvRecords, staffActor } from '@/tests/support/console-export';
import type { Holder } from '@/tests/support/money';

// The console's CSV exports of the agents, cards, webhook events and audit log lists (issue 26,
// point 8), beside tests/console-export.test.ts (customers, transactions): each export's rows are
// what the API or the database holds for the same filters, named and in major units; the audit
// log's export needs the admin role; every export is audited with its filters; a cell a
// spreadsheet would run as a formula comes out as text. Only the session is stood in for.
let signedIn: StaffActor | null = null;
vi.mock('@/app/console/_lib/auth', () => ({ currentStaff: async () => signedIn }));
const routes = {
  agents: (await import('@/app/console/export/agents/route')).GET,
  cards: (await import('@/app/console/export/cards/route')).GET,
  webhooks: (await import('@/app/console/export/webhooks/route')).GET,
  audit: (await import('@/app/console/export/audit/route')).GET,
};
type List = keyof typeof routes;

const tag = `${process.pid}${Date.now()}`;
// Names a spreadsheet would run: an agent's, a cardholder's (it names their cards and agents).
const FORMULA_AGENT = `=HYPERLINK("http://evil.example","x") ${tag}`;
const FORMULA_HOLDER = `@Cara ${tag}`;

let p: TestPlatform;
let admin: StaffActor;
let viewer: StaffActor;
let outsider: StaffActor;
let cara: Holder;
let otto: Holder;
let formulaAgentId: string;
let ottoAgentId: string;
let caraCard: { id: string; last4: string };
let ottoCard: { id: string; last4: string };

async function newAgent(name: string, customerId: string): Promise<string> {
  const res = await p.api.post('/agents', { name, customerId, policy: policy() });
  expect(res.status, res.text).toBe(201);
  return res.body.agent.id;
}

beforeAll(async () => {
  p = await newPlatform();
  admin = await staffActor(p.platformId, 'admin');
  viewer = await staffActor(p.platformId, 'viewer');
  outsider = await staffActor((await newPlatform()).platformId, 'admin');
  cara = await cardholder(p, FORMULA_HOLDER);
  otto = await cardholder(p, `Otto ${tag}`);
  formulaAgentId = await newAgent(FORMULA_AGENT, cara.customerId);
  ottoAgentId = await newAgent(`Otto's bot ${tag}`, otto.customerId);
  caraCard = await activeCard(p, cara, { platformCardId: `-card-${tag}`, maxSpendPerTransaction: 12_345 });
  ottoCard = await activeCard(p, otto);
  // Staff actions through the console's own operations: audit entries on an agent and a card.
  await setAgentPaused(admin, formulaAgentId, true);
  await setCardState(admin, caraCard.id, 'FROZEN');
}, 120_000);

function get(list: List, query: Record<string, string> = {}) {
  return routes[list](new Request(`http://localhost/console/export/${list}?${new URLSearchParams(query)}`));
}

async function download(list: List, query: Record<string, string> = {}) {
  const res = await get(list, query);
  expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toMatch(
    new RegExp(`^attachment; filename="corridor-${list}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
  );
  return csvRecords(res);
}

const ids = (data: { id: string }[]) => data.map((r) => r.id);

it('agents: the filtered agents as the API lists them, by name, limits and usage in major units', async () => {
  signedIn = viewer;
  const { header, rows } = await download('agents', { customerId: cara.customerId });
  expect(header).toEqual([
    'Agent',
    'Customer',
    'Customer id',
    'Connected',
    'Paused',
    'Execution mode',
    'Limit per transaction',
    'Daily limit',
    'Monthly limit',
    'Spent today',
    'Spent this month',
    'Limit currency',
    'Agent id',
    'Created',
  ]);
  const listed = await p.api.get('/agents', { query: { customerId: cara.customerId, limit: 100 } });
  expect(rows.map((r) => r['Agent id'])).toEqual(ids(listed.body.data));
  expect(rows).toEqual([
    {
      Agent: `'${FORMULA_AGENT}`,
      Customer: `'${FORMULA_HOLDER}`,
      'Customer id': cara.customerId,
      Connected: 'no',
      Paused: 'yes',
      'Execution mode': 'AUTO',
      // policy(): 100,000 / 500,000 / 5,000,000 cents of USD.
      'Limit per transaction': '1000.00',
      'Daily limit': '5000.00',
      'Monthly limit': '50000.00',
      'Spent today': '0.00',
      'Spent this month': '0.00',
      'Limit currency': 'USD',
      'Agent id': formulaAgentId,
      Created: listed.body.data[0].createdAt,
    },
  ]);
  // The paused filter, as the page's select sends it.
  const running = await download('agents', { isPaused: 'false' });
  const apiRunning = await p.api.get('/agents', { query: { isPaused: false, limit: 100 } });
  expect(running.rows.map((r) => r['Agent id'])).toEqual(ids(apiRunning.body.data));
  expect(running.rows.map((r) => r['Agent id'])).toContain(ottoAgentId);
  expect(running.rows.map((r) => r['Agent id'])).not.toContain(formulaAgentId);
});

it('cards: the filtered cards as the API lists them, by cardholder, limit in major units, no card number', async () => {
  signedIn = viewer;
  const frozen = await download('cards', { state: 'FROZEN' });
  const apiFrozen = await p.api.get('/cards', { query: { state: 'FROZEN', limit: 100 } });
  expect(frozen.rows.map((r) => r['Card id'])).toEqual(ids(apiFrozen.body.data));
  expect(frozen.rows).toHaveLength(1);
  const card = apiFrozen.body.data[0];
  expect(frozen.rows[0]).toEqual({
    Card: `${card.brand} •••• ${caraCard.last4}`,
    Cardholder: `'${FORMULA_HOLDER}`,
    'Cardholder id': cara.customerId,
    State: 'FROZEN',
    'State reason': card.stateReason ?? '',
    Form: 'VIRTUAL',
    Expires: `${card.expYear}-${String(card.expMonth).padStart(2, '0')}`,
    'Limit per transaction': '123.45',
    Currency: 'USD',
    'Platform card id': `'-card-${tag}`,
    'Card id': caraCard.id,
    Created: card.createdAt,
  });
  const ottos = await download('cards', { cardholderId: otto.customerId });
  expect(ottos.rows.map((r) => [r['Card id'], r.Cardholder, r.State, r['Limit per transaction']])).toEqual([
    [ottoCard.id, `Otto ${tag}`, 'ACTIVE', ''],
  ]);
  // A state outside the page's options is ignored, as the form would: every card.
  const all = await download('cards', { state: 'MELTED' });
  const apiAll = await p.api.get('/cards', { query: { limit: 100 } });
  expect(all.rows.map((r) => r['Card id'])).toEqual(ids(apiAll.body.data));
  expect(all.rows).toHaveLength(2);
});

it('webhooks: the filtered events of the delivery log as the database holds them, subjects named', async () => {
  signedIn = viewer;
  const { rows } = await download('webhooks', { type: 'CARD.STATE_CHANGE' });
  const events = await db().event.findMany({
    where: { platformId: p.platformId, type: 'CARD.STATE_CHANGE' },
    orderBy: { seq: 'desc' },
  });
  expect(events.length).toBeGreaterThanOrEqual(3); // two provisioned, one frozen
  expect(rows.map((r) => [r['Event id'], r['Event type'], r['Subject id'], r.Status, r['Skip reason']])).toEqual(
    events.map((e) => [e.id, e.type, e.subjectId, e.status, e.skipReason ?? '']),
  );
  expect(rows.map((r) => r.Created)).toEqual(events.map((e) => e.createdAt.toISOString()));
  // No endpoint is configured: recorded, never sent.
  expect(new Set(rows.map((r) => `${r.Status} ${r['Skip reason']} ${r.Attempts} ${r['Last response']}`))).toEqual(
    new Set(['SKIPPED NO_ENDPOINT 0 ']),
  );
  // The card an event is about, by name (a name that starts as text needs no guard).
  const caraRow = rows.find((r) => r['Subject id'] === caraCard.id)!;
  expect(caraRow.Subject).toBe(`VISA •••• ${caraCard.last4} of ${FORMULA_HOLDER}`);
  const delivered = await download('webhooks', { status: 'DELIVERED' });
  expect(delivered.rows).toEqual([]);
});

it('audit log: an admin downloads the filtered entries, objects named, formulas neutralised', async () => {
  signedIn = admin;
  // Read first: the export's own entry is written after its first page is read, not in its file.
  const held = await db().staffAuditEntry.findMany({
    where: { platformId: p.platformId, staffEmail: admin.email },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  const { header, rows } = await download('audit', { actor: admin.email.toUpperCase() });
  expect(header).toEqual([
    'When',
    'Staff email',
    'Action',
    'Action code',
    'Object',
    'Object id',
    'Outcome',
    'Details',
    'Staff id',
    'Entry id',
  ]);
  expect(rows.map((r) => r['Entry id'])).toEqual(held.map((e) => e.id));
  expect(rows.map((r) => r.When)).toEqual(held.map((e) => e.createdAt.toISOString()));
  expect(new Set(rows.map((r) => r['Staff email']))).toEqual(new Set([admin.email]));
  expect(rows.map((r) => r['Action code']).sort()).toEqual(['agent.pause', 'card.frozen', 'staff.sign_in']);
  const pause = rows.find((r) => r['Action code'] === 'agent.pause')!;
  expect(pause).toMatchObject({
    Action: 'Paused the agent',
    Object: `'${FORMULA_AGENT} (agent of ${FORMULA_HOLDER})`,
    'Object id': formulaAgentId,
    Outcome: 'DONE',
    Details: JSON.stringify({ isPaused: true }),
    'Staff id': admin.staffUserId,
  });
  const freeze = rows.find((r) => r['Action code'] === 'card.frozen')!;
  expect(freeze.Object).toBe(`VISA •••• ${caraCard.last4} of ${FORMULA_HOLDER}`);

  // By action, and by UTC day: the day of the freeze holds it, a day long before holds nothing.
  const byAction = await download('audit', { action: 'card.frozen' });
  expect(byAction.rows.map((r) => r['Entry id'])).toEqual([freeze['Entry id']]);
  const day = freeze.When.slice(0, 10);
  const sameDay = await download('audit', { action: 'card.frozen', from: day, to: day });
  expect(sameDay.rows.map((r) => r['Entry id'])).toEqual([freeze['Entry id']]);
  const before = await download('audit', { from: '2001-01-01', to: '2001-01-31' });
  expect(before.rows).toEqual([]);
  // Counted before the export, for the same reason.
  const heldFromDay = await db().staffAuditEntry.count({
    where: { platformId: p.platformId, createdAt: { gte: new Date(`${day}T00:00:00.000Z`) } },
  });
  const fromDay = await download('audit', { from: day });
  expect(fromDay.rows).toHaveLength(heldFromDay);
});

it('audit log: an inverted date range is refused with the API error body, not a file', async () => {
  signedIn = admin;
  const res = await get('audit', { from: '2026-02-02', to: '2026-02-01' });
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).not.toContain('text/csv');
  expect(await res.json()).toMatchObject({ status: 400, code: 'INVALID_INPUT', message: /from is after to/ });
});

it('audit log: a viewer is refused (the export needs the admin role), nothing is written to the log', async () => {
  signedIn = viewer;
  const exportsBefore = await db().staffAuditEntry.count({
    where: { platformId: p.platformId, staffUserId: viewer.staffUserId, action: 'list.export' },
  });
  const res = await get('audit', { action: 'card.frozen' });
  expect(res.status).toBe(403);
  expect(res.headers.get('content-type')).not.toContain('text/csv');
  expect(await res.json()).toEqual({
    status: 403,
    code: 'FORBIDDEN',
    message: 'This needs the admin role; you are signed in as viewer',
    details: { requiredRole: 'admin', role: 'viewer' },
  });
  const exportsAfter = await db().staffAuditEntry.count({
    where: { platformId: p.platformId, staffUserId: viewer.staffUserId, action: 'list.export' },
  });
  expect(exportsAfter).toBe(exportsBefore);
});

it('signed out gets 401 and no file; another platform’s staff exports none of these rows', async () => {
  for (const list of Object.keys(routes) as List[]) {
    signedIn = null;
    const refused = await get(list);
    expect(refused.status, list).toBe(401);
    expect(await refused.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    signedIn = outsider;
    const { rows } = await download(list);
    const mine = new Set([formulaAgentId, ottoAgentId, caraCard.id, ottoCard.id, cara.customerId, otto.customerId]);
    const leaked = rows.filter((r) => Object.values(r).some((v) => mine.has(v)));
    expect(leaked, list).toEqual([]);
  }
});

it('every export is audited with its list and filters', async () => {
  signedIn = viewer;
  await (await get('cards', { state: 'ACTIVE', cardholderId: otto.customerId })).text();
  await (await get('webhooks', { status: 'SKIPPED', type: 'CARD.STATE_CHANGE' })).text();
  await (await get('agents', { isConnected: 'false' })).text();
  signedIn = admin;
  await (await get('audit', { actor: viewer.email, action: 'list.export', from: '2001-01-01' })).text();
  const entries = await db().staffAuditEntry.findMany({
    where: { platformId: p.platformId, action: 'list.export' },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const details = entries.map((e) => [e.staffUserId, e.objectId, e.details]);
  expect(details).toContainEqual([
    viewer.staffUserId,
    'cards',
    { list: 'cards', filters: { state: 'ACTIVE', cardholderId: otto.customerId } },
  ]);
  expect(details).toContainEqual([
    viewer.staffUserId,
    'webhooks',
    { list: 'webhooks', filters: { status: 'SKIPPED', type: 'CARD.STATE_CHANGE' } },
  ]);
  expect(details).toContainEqual([viewer.staffUserId, 'agents', { list: 'agents', filters: { isConnected: 'false' } }]);
  expect(details).toContainEqual([
    admin.staffUserId,
    'audit',
    { list: 'audit', filters: { actor: viewer.email, action: 'list.export', from: '2001-01-01' } },
  ]);
});

it('streams past the first page: every one of more than a page of entries, in order, once', async () => {
  // More exports than one page of the export's reads (100 rows): each adds an audit entry.
  signedIn = viewer;
  for (let i = 0; i < 105; i++) expect((await get('webhooks', { status: 'DELIVERED' })).status).toBe(200);
  signedIn = admin;
  const held = await db().staffAuditEntry.findMany({
    where: { platformId: p.platformId, staffEmail: viewer.email, action: 'list.export' },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  const { rows } = await download('audit', { actor: viewer.email, action: 'list.export' });
  expect(held.length).toBeGreaterThan(105);
  expect(rows.map((r) => r['Entry id'])).toEqual(held.map((e) => e.id));
});
