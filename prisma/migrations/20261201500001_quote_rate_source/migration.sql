-- Where a quote's locked rate came from (lib/fx/rates.ts): the rates provider, its timestamp for
-- the figures, and when those figures expired. Null on quotes made before rates had a provider port.
ALTER TABLE "Quote" ADD COLUMN "rateProvider" TEXT;
ALTER TABLE "Quote" ADD COLUMN "rateAsOf" TIMESTAMP(3);
ALTER TABLE "Quote" ADD COLUMN "rateExpiresAt" TIMESTAMP(3);
