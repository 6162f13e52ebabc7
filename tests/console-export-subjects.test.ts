import { beforeAll, expect, it, vi } from 'vitest';
import { db } from '@/lib/core/db';
import type { StaffActor } from '@/lib/staff/roles';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { csvRecords, staffActor } from '@/tests/support/console-export';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';

// The webhook events CSV names what each event is about (issue 26, point 8): a transaction
// event's subject is its transaction, named as the transactions list shows it — its customer and
// the transaction's reference — not left blank. Only the session is stood in for.
let signedIn: StaffActor | null = null;
vi.mock('@/app/console/_lib/auth', () => ({ currentStaff: async () => signedIn }));
const { GET } = await import('@/app/console/export/webhooks/route');

const tag = `${process.pid}${Date.now()}`;
let p: TestPlatform;
let otto: Holder;

beforeAll(async () => {
  p = await newPlatform();
  signedIn = await staffActor(p.platformId, 'viewer');
  otto = await customerWithAccounts(p, `Otto ${tag}`, ['USD']);
  await fund(p, otto.accounts.USD!, 10_000);
}, 120_000);

it('a transaction event names its subject by the transaction’s customer and reference', async () => {
  const ext = await externalAccount(p, otto.customerId, 'USD', '555');
  const out = await p.api.post('/transfer-out', {
    source: { accountId: otto.accounts.USD },
    destination: { accountId: ext },
    amount: 1500,
  });
  expect(out.status, out.text).toBe(201);
  const txn = await db().transaction.findUniqueOrThrow({ where: { id: out.body.id } });
  expect(txn.reference).toBeTruthy();
  const events = await db().event.findMany({ where: { platformId: p.platformId, subjectId: txn.id } });
  expect(events.length).toBeGreaterThan(0);
  for (const type of new Set(events.map((e) => e.type))) {
    const res = await GET(new Request(`http://localhost/console/export/webhooks?${new URLSearchParams({ type })}`));
    expect(res.status).toBe(200);
    const { rows } = await csvRecords(res);
    const about = rows.filter((r) => r['Subject id'] === txn.id);
    expect(about.length).toBeGreaterThan(0);
    for (const r of about) expect(r.Subject).toBe(`Otto ${tag} · ${txn.reference}`);
  }
});
