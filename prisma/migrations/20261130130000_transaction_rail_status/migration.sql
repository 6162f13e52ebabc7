-- Where a payment stands with the payment rail (lib/payments/rail.ts), and why it waits.
ALTER TABLE "Transaction" ADD COLUMN "railStatus" TEXT;
ALTER TABLE "Transaction" ADD COLUMN "railNote" TEXT;
