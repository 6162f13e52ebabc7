-- Staff may send a refund over the rail again after it failed or was returned (lib/payments/
-- rail-refund-ops.ts). Each attempt goes to the rail under a reference of its own (the rail is
-- idempotent by reference: the first attempt's `<id>:refund`, then `<id>:refund:2`, ...), and
-- only the current attempt's events move the refund: a late callback about an earlier one is ignored.
ALTER TABLE "Transaction" ADD COLUMN "refundAttempt" INTEGER NOT NULL DEFAULT 1;
