// Finds each operation's effects in the database, by the marks its bodies carry (see
// operations.mjs): an effect is { variant ('a' | 'b', or null when it belongs to the key), id,
// at (when the service created it, ms since the epoch, the server's clock = this machine's) }.
const ms = (col) => `(extract(epoch from ${col}) * 1000)::float8`;

function byMarker(rows, runId) {
  const re = new RegExp(`^soak-${runId}-(\\d+)([ab])$`);
  const out = new Map();
  for (const r of rows) {
    const m = re.exec(r.marker ?? '');
    if (!m) continue;
    const list = out.get(Number(m[1])) ?? [];
    list.push({ variant: m[2], id: r.id, at: r.at });
    out.set(Number(m[1]), list);
  }
  return out;
}

/** Operation kind -> (operation index -> effects), for the effects found by the marks they carry. */
async function markedEffects(conn, runId) {
  const like = `soak-${runId}-%`;
  const marked = {
    'transfer-out': byMarker(
      (
        await conn.query(
          `SELECT "id", "remittanceInformation" AS marker, ${ms('"createdAt"')} AS at FROM "Transaction" WHERE "remittanceInformation" LIKE $1`,
          [like],
        )
      ).rows,
      runId,
    ),
    quote: byMarker(
      (
        await conn.query(
          `SELECT "id", "description" AS marker, ${ms('"createdAt"')} AS at FROM "Quote" WHERE "description" LIKE $1`,
          [like],
        )
      ).rows,
      runId,
    ),
    cancel: byMarker(
      (
        await conn.query(
          `SELECT "id", "platformReason" AS marker, ${ms('"updatedAt"')} AS at FROM "Transaction" WHERE "platformReason" LIKE $1`,
          [like],
        )
      ).rows,
      runId,
    ),
  };
  marked['quote-now'] = marked.quote;
  return marked;
}

/** Map operation index -> effects found. */
export async function findEffects(conn, runId, ops) {
  const marked = await markedEffects(conn, runId);

  // Amount-marked effects: (internal account, amount) -> rows.
  const byAmount = async (sql) => {
    const m = new Map();
    for (const r of (await conn.query(sql)).rows) {
      const k = `${r.account}|${r.amount}`;
      m.set(k, [...(m.get(k) ?? []), { id: r.id, at: r.at }]);
    }
    return m;
  };
  const transferIns = await byAmount(
    `SELECT "id", "internalAccountId" AS account, "sentAmount"::text AS amount, ${ms('"createdAt"')} AS at
     FROM "Transaction" WHERE "type" = 'INCOMING' AND "quoteId" IS NULL`,
  );
  const funds = await byAmount(
    `SELECT t."id", la."internalAccountId" AS account, e."amount"::text AS amount, ${ms('t."createdAt"')} AS at
     FROM "LedgerEntry" e JOIN "LedgerTransfer" t ON t."id" = e."transferId"
     JOIN "LedgerAccount" la ON la."id" = e."ledgerAccountId"
     WHERE t."kind" = 'SANDBOX_FUNDING' AND la."bucket" = 'AVAILABLE'`,
  );

  // Key-scoped effects: postings of the quote's transaction.
  const txIds = ops.filter((o) => o.kind === 'execute' || o.kind === 'send').map((o) => o.target.transactionId);
  const postings = new Map();
  for (const r of (
    await conn.query(
      `SELECT "id", "kind", "transactionId", ${ms('"createdAt"')} AS at FROM "LedgerTransfer"
       WHERE "kind" IN ('PAYMENT_HOLD', 'FUNDING_RECEIVED') AND "transactionId" = ANY($1)`,
      [txIds],
    )
  ).rows) {
    const k = `${r.kind}|${r.transactionId}`;
    postings.set(k, [...(postings.get(k) ?? []), { id: r.id, at: r.at }]);
  }

  const result = new Map();
  for (const op of ops) {
    let effects = [];
    if (marked[op.kind]) effects = marked[op.kind].get(op.index) ?? [];
    else if (op.kind === 'transfer-in' || op.kind === 'fund') {
      const source = op.kind === 'fund' ? funds : transferIns;
      for (const v of ['a', 'b']) {
        const { account, amount } = op.variants[v].match;
        for (const e of source.get(`${account}|${amount}`) ?? []) effects.push({ variant: v, ...e });
      }
    } else {
      const kind = op.kind === 'execute' ? 'PAYMENT_HOLD' : 'FUNDING_RECEIVED';
      // The answer of both names the quote (execute) or its transaction (send), not the posting.
      const answerId = op.kind === 'execute' ? op.target.quoteId : op.target.transactionId;
      effects = (postings.get(`${kind}|${op.target.transactionId}`) ?? []).map((e) => ({
        variant: null,
        id: answerId,
        posting: e.id,
        at: e.at,
      }));
    }
    result.set(op.index, effects);
  }
  return result;
}
