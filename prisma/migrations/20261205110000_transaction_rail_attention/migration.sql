-- The payments that wait on the payment rail and the refunds over it that need staff: the console's
-- overview counts them on every live poll and its rail filter lists them (lib/payments/transactions/
-- repository.ts RAIL_FILTERS), the metrics probe on every scrape. They are few among all payments,
-- and without an index each count read every transaction of the platform. Partial, so the payments
-- in no such state (nearly all) have no entry here.
CREATE INDEX "Transaction_rail_attention_idx" ON "Transaction"("platformId", "railStatus")
  WHERE "railStatus" IN ('WAITING', 'REFUND_WAITING', 'REFUND_FAILED', 'REFUND_RETURNED', 'REFUND_HELD', 'PULL_RETURNED');
