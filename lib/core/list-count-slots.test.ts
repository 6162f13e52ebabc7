import { expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { newPlatform } from '@/tests/support/api';

// A statement that adds to a count several times (a customer created with its accounts: one
// internal account per currency) adds to one slot of that count, its session's, rather than to
// random slots in random order, which made two such statements side by side deadlock on the
// counters' rows (prisma/migrations/20261129150000_list_count_slot_per_session).
it('adds one statement’s rows to one slot of each count', async () => {
  const p = await newPlatform();
  const made = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Slot Count',
    currencies: ['USD', 'EUR', 'MXN', 'USDC'],
  });
  expect(made.status, made.text).toBe(201);
  const slots = await db().listCount.findMany({
    where: { platformId: p.platformId, list: 'internalAccounts' },
    select: { key: true, slot: true, n: true },
  });
  // The customer's accounts, one per currency, counted in a single slot.
  const sum = slots.reduce((s, r) => s + Number(r.n), 0);
  expect(sum).toBeGreaterThanOrEqual(4);
  const byKey = new Map<string, number>();
  for (const r of slots) byKey.set(r.key, (byKey.get(r.key) ?? 0) + 1);
  for (const [key, rows] of byKey) expect(rows, `slots used for key ${key}`).toBe(1);
});
