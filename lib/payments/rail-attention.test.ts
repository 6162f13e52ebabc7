import { expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { newPlatform } from '@/tests/support/api';
import { planOf, statements } from '@/tests/support/sql-capture';
import { countRail } from './transactions/repository';

// The console's overview counts the payments waiting on the rail and the refunds needing staff on
// every live poll, and its rail filter lists them: few rows among all of a platform's payments.
// Both read them through the partial index Transaction_rail_attention_idx, whose predicate must
// hold every state the filters select (RAIL_FILTERS, built from lib/payments/rail.ts's lists).
it('the rail counters read the partial index, not every transaction of the platform', async () => {
  const p = await newPlatform();
  for (const rail of ['WAITING', 'STAFF'] as const) {
    const { result, sent } = await statements(() => countRail(p.platformId, rail, db()));
    expect(result).toBe(0);
    const count = sent.find((s) => /FROM "public"\."Transaction"/.test(s.text));
    expect(count, sent.map((s) => s.text).join('\n')).toBeDefined();
    const plan = await planOf(count!);
    expect(plan, `${rail}:\n${plan}`).toMatch(/using "?Transaction_rail_attention_idx/);
    expect(plan, `${rail}:\n${plan}`).not.toMatch(/Seq Scan/);
  }
});
