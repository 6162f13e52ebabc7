-- Running totals for the console's overview (lib/core/running-totals.ts): what the platform holds
-- per currency and bucket, and the completed volume per day and currency, read in a few rows
-- however many accounts and payments there are.
--
-- Writers never update a shared row: each posting (corridor_apply_deltas) and each transaction
-- entering or leaving COMPLETED appends its change to "RunningTotalChange". The worker's sweep
-- folds the changes into "RunningTotal" (one statement: delete them, add their sums). A reader sums
-- both tables in one statement, so it sees every committed change exactly once, folded or not.
--
-- Keys: 'balance:<CURRENCY>:<BUCKET>' (amount: the sum of the internal accounts' balances) and
-- 'completed:<YYYY-MM-DD>:<CURRENCY>' (n: completed transactions created that UTC day, amount:
-- their sent amount). Keys compare byte by byte (COLLATE "C"): a prefix or a date range is a range
-- of the primary key.

CREATE TABLE "RunningTotal" (
  "platformId" TEXT NOT NULL,
  "key" TEXT COLLATE "C" NOT NULL,
  "n" BIGINT NOT NULL DEFAULT 0,
  "amount" BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY ("platformId", "key")
);

CREATE TABLE "RunningTotalChange" (
  "id" BIGSERIAL PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "key" TEXT COLLATE "C" NOT NULL,
  "n" BIGINT NOT NULL DEFAULT 0,
  "amount" BIGINT NOT NULL DEFAULT 0
);

-- The ledger's one way to move money (20261121009000_ledger_apply_function), now also recording
-- the net change per currency and bucket of the internal accounts it touched. A transfer between
-- two customers' available balances nets to zero and records nothing.
CREATE OR REPLACE FUNCTION corridor_apply_deltas(p_ok boolean, p_ids text[], p_amounts bigint[], p_at timestamp(3))
RETURNS TABLE ("id" text, "internalAccountId" text, "bucket" text, "balance" bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  moved integer;
  short text;
BEGIN
  IF p_ok IS NOT TRUE THEN
    RAISE EXCEPTION 'the step no longer applies' USING ERRCODE = 'CR003';
  END IF;
  INSERT INTO "LedgerAccount" ("id", "platformId", "currency", "internalAccountId", "bucket", "name", "allowNegative", "createdAt")
  SELECT v.id, split_part(v.id, '/', 1), split_part(v.id, '/', 3), NULL, 'SYSTEM', split_part(v.id, '/', 2), true, p_at
  FROM unnest(p_ids) AS v(id)
  WHERE v.id ~ '^Platform:[^/]+/[^/]+/[^/]+$' AND NOT EXISTS (SELECT 1 FROM "LedgerAccount" a WHERE a."id" = v.id)
  ON CONFLICT ("id") DO NOTHING;
  PERFORM 1 FROM "LedgerAccount" a WHERE a."id" = ANY (p_ids) ORDER BY a."id" FOR NO KEY UPDATE;
  -- The rows are locked: these checks see the balances the update will change.
  SELECT v.id INTO short FROM unnest(p_ids) AS v(id)
  WHERE NOT EXISTS (SELECT 1 FROM "LedgerAccount" a WHERE a."id" = v.id) ORDER BY v.id LIMIT 1;
  IF short IS NOT NULL THEN
    RAISE EXCEPTION 'ledger account % does not exist', short USING ERRCODE = 'CR002';
  END IF;
  SELECT a."id" INTO short FROM "LedgerAccount" a JOIN unnest(p_ids, p_amounts) AS v(id, amount) ON a."id" = v.id
  WHERE NOT a."allowNegative" AND a."balance" + v.amount < 0 ORDER BY a."id" LIMIT 1;
  IF short IS NOT NULL THEN
    RAISE EXCEPTION 'insufficient funds: ACCOUNT %', short USING ERRCODE = 'CR001';
  END IF;
  RETURN QUERY
    WITH u AS (
      UPDATE "LedgerAccount" AS a SET "balance" = a."balance" + v.amount
      FROM unnest(p_ids, p_amounts) AS v(id, amount)
      WHERE a."id" = v.id AND (a."allowNegative" OR a."balance" + v.amount >= 0)
      RETURNING a."id", a."platformId", a."currency", a."internalAccountId", a."bucket", a."balance", v.amount AS delta
    ), totals AS (
      INSERT INTO "RunningTotalChange" ("platformId", "key", "amount")
      SELECT u."platformId", 'balance:' || u."currency" || ':' || u."bucket", sum(u.delta)
      FROM u WHERE u."internalAccountId" IS NOT NULL
      GROUP BY 1, 2 HAVING sum(u.delta) <> 0
    )
    SELECT u."id", u."internalAccountId", u."bucket", u."balance" FROM u;
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved < cardinality(p_ids) THEN
    RAISE EXCEPTION 'posting moved % of % accounts', moved, cardinality(p_ids) USING ERRCODE = 'CR001';
  END IF;
END $$;

-- Completed volume: a transaction entering COMPLETED adds itself to its creation day, one leaving
-- it (or deleted) takes itself back.
CREATE FUNCTION corridor_total_completed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."status" = 'COMPLETED' AND OLD."sentCurrency" IS NOT NULL THEN
    INSERT INTO "RunningTotalChange" ("platformId", "key", "n", "amount")
    VALUES (OLD."platformId", 'completed:' || to_char(OLD."createdAt", 'YYYY-MM-DD') || ':' || OLD."sentCurrency",
      -1, -COALESCE(OLD."sentAmount", 0));
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."status" = 'COMPLETED' AND NEW."sentCurrency" IS NOT NULL THEN
    INSERT INTO "RunningTotalChange" ("platformId", "key", "n", "amount")
    VALUES (NEW."platformId", 'completed:' || to_char(NEW."createdAt", 'YYYY-MM-DD') || ':' || NEW."sentCurrency",
      1, COALESCE(NEW."sentAmount", 0));
  END IF;
  RETURN NULL;
END $$;
-- WHEN clauses: the function runs only for rows that are or were COMPLETED, not on every insert.
CREATE TRIGGER "Transaction_total_completed_insert" AFTER INSERT ON "Transaction"
FOR EACH ROW WHEN (NEW."status" = 'COMPLETED') EXECUTE FUNCTION corridor_total_completed();
CREATE TRIGGER "Transaction_total_completed_delete" AFTER DELETE ON "Transaction"
FOR EACH ROW WHEN (OLD."status" = 'COMPLETED') EXECUTE FUNCTION corridor_total_completed();
CREATE TRIGGER "Transaction_total_completed_update"
AFTER UPDATE OF "status", "sentAmount", "sentCurrency", "createdAt" ON "Transaction"
FOR EACH ROW WHEN (OLD."status" = 'COMPLETED' OR NEW."status" = 'COMPLETED')
EXECUTE FUNCTION corridor_total_completed();

-- The totals recomputed from the rows themselves: for what is there already (below), and for
-- scripts that write rows in bulk with the triggers off (scripts/seed.mjs).
CREATE FUNCTION corridor_rebuild_running_totals() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM "RunningTotalChange";
  DELETE FROM "RunningTotal";
  INSERT INTO "RunningTotal" ("platformId", "key", "n", "amount")
  SELECT "platformId", 'balance:' || "currency" || ':' || "bucket", 0, sum("balance")
  FROM "LedgerAccount" WHERE "internalAccountId" IS NOT NULL GROUP BY 1, 2
  UNION ALL
  SELECT "platformId", 'completed:' || to_char("createdAt", 'YYYY-MM-DD') || ':' || "sentCurrency", count(*),
    COALESCE(sum("sentAmount"), 0)
  FROM "Transaction" WHERE "status" = 'COMPLETED' AND "sentCurrency" IS NOT NULL GROUP BY 1, 2;
$$;
SELECT corridor_rebuild_running_totals();
