import { expect, it } from 'vitest';
import { migrate } from '../scripts/migrate.mjs';
import { runScript, sql } from './support/ops';
import { scratchDatabase } from './support/scratch-database';

// `npm run ledger:check` (issue 28): passes a balanced ledger and fails, naming the rule, one where a
// currency does not sum to zero or a balance differs from its entries.
it('npm run ledger:check passes a balanced ledger and names what is wrong in one that is not', async () => {
  const db = await scratchDatabase();
  try {
    await migrate(db.url);
    await sql(
      db.url,
      `INSERT INTO "Platform" ("id", "name", "umaDomain", "createdAt", "updatedAt")
       VALUES ('Platform:lc', 'Ledger check', 'lc.test', now(), now())`,
    );
    // Outside money in: the world's account goes negative by what the customer's account holds.
    await sql(
      db.url,
      `INSERT INTO "LedgerAccount" ("id", "platformId", "currency", "bucket", "name", "allowNegative", "balance", "createdAt")
       VALUES ('la:world', 'Platform:lc', 'USD', 'SYSTEM', 'world', true, -2500, now()),
              ('la:customer', 'Platform:lc', 'USD', 'AVAILABLE', 'customer', false, 2500, now())`,
    );
    await sql(
      db.url,
      `INSERT INTO "LedgerTransfer" ("id", "platformId", "kind", "createdAt") VALUES ('lt:1', 'Platform:lc', 'FUND', now());
       INSERT INTO "LedgerEntry" ("id", "transferId", "ledgerAccountId", "currency", "amount", "createdAt")
       VALUES ('le:1', 'lt:1', 'la:world', 'USD', -2500, now()), ('le:2', 'lt:1', 'la:customer', 'USD', 2500, now())`,
    );
    const env = { DATABASE_URL: db.url };
    const ok = await runScript('ledger-check', [], env);
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain('ledger: 2 accounts, 2 entries, 1 postings, 1 platform currencies: balanced');

    await sql(db.url, `UPDATE "LedgerAccount" SET "balance" = 2600 WHERE "id" = 'la:customer'`);
    const bad = await runScript('ledger-check', [], env);
    expect(bad.code, bad.out).toBe(1);
    expect(bad.out).toContain('NOT balanced');
    expect(bad.out).toContain('ledger-unbalanced: Platform:lc USD: accounts sum to 100');
    expect(bad.out).toContain('balance-drift: la:customer: balance 2600, entries 2500');
  } finally {
    await db.stop();
  }
}, 120_000);
