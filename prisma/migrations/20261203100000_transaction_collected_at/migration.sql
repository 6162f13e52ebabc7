-- When the rail reported the pull that funds a quote COMPLETED (lib/payments/rail-engine.ts): the
-- payout of such a quote is handed to the rail only after this is set, and set once.
ALTER TABLE "Transaction" ADD COLUMN "collectedAt" TIMESTAMP(3);
