import { expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import * as audit from '@/lib/staff/audit';
import { newPlatform } from '@/tests/support/api';
import { staffActor } from '@/tests/support/console-export';
import { planOf, statements } from '@/tests/support/sql-capture';

// The audit log's filters (console page and CSV export) held to the rule every list follows
// (lib/core/list.ts): each filter's page and count read its own index in the list's order — no
// sequential scan, no sort — so a page costs the same at any size of the log.
it('the audit log pages each filter through its own index, without a sort, at any size', async () => {
  // A platform of its own with thousands of entries, so the planner sees what a filter saves.
  const { platformId } = await newPlatform();
  await staffActor(platformId, 'admin'); // its sign-in: the entry the crowd is copied from
  await db().$executeRawUnsafe(
    `INSERT INTO "StaffAuditEntry" SELECT (jsonb_populate_record(NULL::"StaffAuditEntry", to_jsonb(t) ||
       jsonb_build_object('id', t.id || '-' || g, 'staffEmail', 'crowd-' || (g % 50) || '@staff.example',
       'action', (ARRAY['staff.sign_in', 'token.create', 'config.update'])[1 + g % 3]))).*
     FROM "StaffAuditEntry" t, generate_series(1, 3000) g WHERE t."platformId" = $1`,
    platformId,
  );
  await db().$executeRawUnsafe('ANALYZE "StaffAuditEntry"');
  const day = (d: string) => new Date(`${d}T00:00:00.000Z`);
  const cases: [audit.AuditFilter, string, number][] = [
    [{ action: 'token.create' }, 'StaffAuditEntry_platformId_action_createdAt_id_idx', 1000],
    [
      { action: 'token.create', from: day('2001-01-01'), to: day('2099-12-31') },
      'StaffAuditEntry_platformId_action_createdAt_id_idx',
      1000,
    ],
    [{ staffEmail: 'crowd-7@staff.example' }, 'StaffAuditEntry_platformId_staffEmail_createdAt_id_idx', 60],
    [{ from: day('2001-01-01') }, 'StaffAuditEntry_platformId_createdAt_id_idx', 3001],
  ];
  const problems: string[] = [];
  for (const [filter, index, total] of cases) {
    const { sent, result } = await statements(() => audit.list(platformId, filter, 5));
    expect(result.totalCount, JSON.stringify(filter)).toBe(total);
    const reads = sent.filter((s) => /FROM "public"\."StaffAuditEntry"/.test(s.text));
    expect(reads.length, JSON.stringify(filter)).toBe(2); // the page and its bounded count
    for (const statement of reads) {
      const plan = await planOf(statement);
      const label = `${JSON.stringify(filter)}: ${statement.text.slice(0, 40)}`;
      if (/Seq Scan|Sort/.test(plan)) problems.push(`${label}: scans or sorts\n${plan}`);
      if (!plan.includes(index)) problems.push(`${label}: not using ${index}\n${plan}`);
    }
  }
  expect(problems).toEqual([]);
});
