-- A /transfer-in pull the payer's bank reversed after it completed was marked railStatus RETURNED,
-- in no staff list; it is now PULL_RETURNED with pullReturnedAt (lib/payments/rail-engine.ts
-- applyPullEvent), listed under "refunds needing staff" for staff to take back
-- (lib/payments/rail-pull-reversal-ops.ts). Existing ones move to the same state; the time of the
-- reversal was not kept, its last update stands for it.
UPDATE "Transaction"
SET "railStatus" = 'PULL_RETURNED', "pullReturnedAt" = COALESCE("pullReturnedAt", "updatedAt")
WHERE "type" = 'INCOMING' AND "status" = 'COMPLETED' AND "railStatus" = 'RETURNED';
