// `npm run ledger:check`: audits the ledger of the database the server uses (DATABASE_URL, else
// the embedded one, through the running server's port when one holds it), in one snapshot: per
// platform and currency the accounts sum to zero, every posting balances, every account balance
// equals the sum of its entries, and no account that may not go negative is. Exit 1 otherwise.
import { reachDatabase } from './embedded-db.mjs';
import pg from 'pg';
import { auditLines, ledgerAudit } from './ops-checks.mjs';

const database = await reachDatabase();
const client = new pg.Client({ connectionString: database.url });
try {
  await client.connect();
  const { ok, lines } = auditLines(await ledgerAudit(client));
  for (const line of lines) (ok ? console.log : console.error)(`[ledger:check] ${line}`);
  process.exitCode = ok ? 0 : 1;
} catch (err) {
  console.error(`[ledger:check] failed: ${err.message}`);
  process.exitCode = 1;
} finally {
  await client.end().catch(() => {});
  await database.stop();
}
