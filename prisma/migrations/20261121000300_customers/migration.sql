CREATE TABLE "Customer" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "platformCustomerId" TEXT NOT NULL,
  "customerType" TEXT NOT NULL CHECK ("customerType" IN ('INDIVIDUAL', 'BUSINESS')),
  "umaAddress" TEXT NOT NULL,
  "email" TEXT,
  "phoneNumber" TEXT,
  "region" TEXT,
  "currencies" TEXT[] NOT NULL,
  "kycStatus" TEXT,
  "kybStatus" TEXT,
  "fullName" TEXT,
  "registrationNumber" TEXT,
  "profile" JSONB NOT NULL,
  "identifier" TEXT,
  "endUserTermsConsent" JSONB,
  "contactVerification" JSONB,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  "deletedAt" TIMESTAMP(3)
);
CREATE INDEX "Customer_platformId_createdAt_idx" ON "Customer"("platformId", "createdAt");
CREATE INDEX "Customer_platformId_platformCustomerId_idx" ON "Customer"("platformId", "platformCustomerId");
CREATE INDEX "Customer_platformId_umaAddress_idx" ON "Customer"("platformId", "umaAddress");
-- Uniqueness holds among active customers only: a deleted customer frees its identifiers.
CREATE UNIQUE INDEX "Customer_active_platformCustomerId_key" ON "Customer"("platformId", "platformCustomerId") WHERE "deletedAt" IS NULL;
CREATE UNIQUE INDEX "Customer_active_umaAddress_key" ON "Customer"(lower("umaAddress")) WHERE "deletedAt" IS NULL;
ALTER TABLE "InternalAccount" ADD CONSTRAINT "InternalAccount_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id");
