-- Moves the balances of one posting inside a larger statement, so a whole payment step (its
-- guarded state move, its rows, its money and its events) is one statement and one round trip,
-- and a busy account stays locked only for that statement's commit. See lib/ledger/repository.ts
-- (writeStep).
--
--   p_ok      false when the step's guarded state move matched no row (the payment moved on):
--             raises CR003 so the statement, and every row it inserted, is undone.
--   p_ids     ledger account ids (distinct), p_amounts their deltas.
--   p_at      the application clock's now, for system accounts opened here.
--
-- System accounts ("<platformId>/<name>/<currency>", lib/ledger/service.ts systemAccount) are
-- opened on first use. Then the accounts are locked in id order (so postings over the same
-- accounts queue instead of deadlocking), checked, and moved. Raises CR001 ("ACCOUNT <id>") when
-- an account that may not go negative would, CR002 when an account does not exist. Returns the
-- moved accounts' new balances.
CREATE FUNCTION corridor_apply_deltas(p_ok boolean, p_ids text[], p_amounts bigint[], p_at timestamp(3))
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
    UPDATE "LedgerAccount" AS a SET "balance" = a."balance" + v.amount
    FROM unnest(p_ids, p_amounts) AS v(id, amount)
    WHERE a."id" = v.id AND (a."allowNegative" OR a."balance" + v.amount >= 0)
    RETURNING a."id", a."internalAccountId", a."bucket", a."balance";
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved < cardinality(p_ids) THEN
    RAISE EXCEPTION 'posting moved % of % accounts', moved, cardinality(p_ids) USING ERRCODE = 'CR001';
  END IF;
END $$;
