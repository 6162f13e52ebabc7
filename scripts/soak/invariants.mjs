// Whole-service invariants after the run, through the database and through the API:
//   ledger-unbalanced      per platform and currency the ledger accounts do not sum to zero
//   posting-unbalanced     a posting whose entries do not sum to zero
//   balance-drift          an account balance that differs from the sum of its entries
//   negative-balance       an account that may not go negative did (internal buckets included)
//   negative-balance-api   an internal account the API shows with a negative balance
//   job-claimed-by-dead-worker  a job still RUNNING, claimed before the last restart, once the
//                          worker had `settleSeconds` to resume it
//   answer-not-found       an id a success answer named that the API does not know
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function ledgerViolations(conn) {
  const v = [];
  const q = async (sql) => (await conn.query(sql)).rows;
  for (const r of await q(
    `SELECT "platformId", "currency", SUM("balance")::text AS total FROM "LedgerAccount"
     GROUP BY "platformId", "currency" HAVING SUM("balance") <> 0`,
  ))
    v.push({ rule: 'ledger-unbalanced', detail: `${r.platformId} ${r.currency}: accounts sum to ${r.total}` });
  for (const r of await q(
    `SELECT t."id", e."currency", SUM(e."amount")::text AS total FROM "LedgerTransfer" t
     JOIN "LedgerEntry" e ON e."transferId" = t."id" GROUP BY t."id", e."currency" HAVING SUM(e."amount") <> 0`,
  ))
    v.push({ rule: 'posting-unbalanced', detail: `${r.id} ${r.currency}: entries sum to ${r.total}` });
  for (const r of await q(
    `SELECT a."id", a."balance"::text AS balance, COALESCE(SUM(e."amount"), 0)::text AS entries
     FROM "LedgerAccount" a LEFT JOIN "LedgerEntry" e ON e."ledgerAccountId" = a."id"
     GROUP BY a."id", a."balance" HAVING a."balance" <> COALESCE(SUM(e."amount"), 0)`,
  ))
    v.push({ rule: 'balance-drift', detail: `${r.id}: balance ${r.balance}, entries ${r.entries}` });
  for (const r of await q(
    `SELECT "id", "bucket", "internalAccountId", "balance"::text AS balance FROM "LedgerAccount"
     WHERE "balance" < 0 AND (NOT "allowNegative" OR "internalAccountId" IS NOT NULL)`,
  ))
    v.push({
      rule: 'negative-balance',
      detail: `${r.id} (${r.bucket} of ${r.internalAccountId ?? 'system'}): ${r.balance}`,
    });
  return v;
}

/**
 * Gives the worker `settleSeconds` to finish or resume what it holds, then reports jobs still
 * RUNNING that were claimed before the last (re)start: their worker is dead.
 */
export async function jobViolations(conn, lastStart, settleSeconds) {
  const running = async () =>
    (
      await conn.query(
        `SELECT "id", "kind", (extract(epoch from "lockedAt") * 1000)::float8 AS locked FROM "Job" WHERE "state" = 'RUNNING'`,
      )
    ).rows;
  const until = Date.now() + settleSeconds * 1000;
  let rows = await running();
  while (rows.length && Date.now() < until) {
    await sleep(1000);
    rows = await running();
  }
  const dead = rows.filter((r) => r.locked !== null && r.locked < lastStart);
  const states = (await conn.query(`SELECT "state", COUNT(*)::int AS n FROM "Job" GROUP BY "state" ORDER BY 1`)).rows;
  return {
    violations: dead.map((r) => ({
      rule: 'job-claimed-by-dead-worker',
      detail: `${r.kind} ${r.id} RUNNING since ${new Date(r.locked).toISOString()}, before the last restart at ${new Date(lastStart).toISOString()}`,
    })),
    stillRunning: rows.length,
    states: Object.fromEntries(states.map((s) => [s.state, s.n])),
  };
}

async function inBatches(items, size, fn) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/** Through the API: balances of every customer's accounts, and every id a success answer named. */
export async function apiViolations(client, customers, named) {
  const v = [];
  for (const c of customers) {
    const list = await client.must('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`);
    for (const a of list.data) {
      for (const field of ['balance', 'totalBalance'])
        if (a[field] && Number(a[field].amount) < 0)
          v.push({ rule: 'negative-balance-api', detail: `${a.id} ${field} ${a[field].amount}` });
    }
  }
  await inBatches(named, 8, async ({ path, id }) => {
    const attempts = [];
    const a = await client.untilFinal('GET', `${path}/${encodeURIComponent(id)}`, { attempts });
    if (!a || a.status !== 200) v.push({ rule: 'answer-not-found', detail: `GET ${path}/${id} -> ${a?.status}` });
  });
  return v;
}
