-- When the payer's bank returned (reversed) the pull that funded a quote after it had completed
-- (lib/payments/rail-collect.ts): recorded once for staff, never posted, and a refund to that bank
-- is not sent while it is set (the payer already has the money back).
ALTER TABLE "Transaction" ADD COLUMN "pullReturnedAt" TIMESTAMP(3);
