-- The console search's card and amount indexes become hash indexes on the value searched for.
-- As b-trees led by "platformId" (20261201200000_console_search) each also served a plain
-- "platformId = …" filter, and the planner took them (narrower than the list indexes) for the
-- cards and transactions lists' pages and counts, then sorted every row of the platform
-- (tests/list-plans.test.ts, lib/payments/transactions/list-scale.test.ts); a b-tree led by the
-- value was still scanned whole for them. A hash index answers only "value = …", which is all
-- the search asks (the platform is a filter on the few rows found).
DROP INDEX IF EXISTS "Card_platformId_last4_idx";
DROP INDEX IF EXISTS "Transaction_platformId_sentAmount_idx";
DROP INDEX IF EXISTS "Transaction_platformId_receivedAmount_idx";
CREATE INDEX "Card_last4_idx" ON "Card" USING HASH ("last4");
CREATE INDEX "Transaction_sentAmount_idx" ON "Transaction" USING HASH ("sentAmount");
CREATE INDEX "Transaction_receivedAmount_idx" ON "Transaction" USING HASH ("receivedAmount");
