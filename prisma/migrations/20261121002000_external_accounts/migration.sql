-- External accounts (bank accounts and wallets outside the service), their ownership
-- verification challenges and their beneficiary-trust (SCA) challenges.
CREATE TABLE "ExternalAccount" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT REFERENCES "Customer"("id"),
  "status" TEXT NOT NULL CHECK ("status" IN ('PENDING', 'ACTIVE', 'PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED', 'UNDER_REVIEW', 'INACTIVE')),
  "currency" TEXT NOT NULL,
  "accountType" TEXT NOT NULL,
  "primaryIdentifier" TEXT NOT NULL,
  "identityKey" TEXT NOT NULL,
  "platformAccountId" TEXT,
  "ownershipType" TEXT CHECK ("ownershipType" IN ('FIRST_PARTY', 'THIRD_PARTY')),
  "defaultUmaDepositAccount" BOOLEAN NOT NULL DEFAULT false,
  "beneficiaryVerificationStatus" TEXT CHECK ("beneficiaryVerificationStatus" IN ('MATCHED', 'PARTIAL_MATCH', 'NOT_MATCHED', 'UNSUPPORTED', 'CHECKED_BY_RECEIVING_FI', 'PENDING')),
  "beneficiaryVerifiedName" TEXT,
  "accountInfo" JSONB NOT NULL,
  "trustedAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  "deletedAt" TIMESTAMP(3),
  -- Only a customer's account can receive that customer's UMA payments.
  CONSTRAINT "ExternalAccount_default_needs_customer" CHECK (NOT "defaultUmaDepositAccount" OR "customerId" IS NOT NULL)
);
CREATE INDEX "ExternalAccount_platformId_customerId_createdAt_idx" ON "ExternalAccount"("platformId", "customerId", "createdAt");
CREATE INDEX "ExternalAccount_platformId_createdAt_idx" ON "ExternalAccount"("platformId", "createdAt");
-- One live account per owner, currency and identifier (the platform is the owner when customerId is null).
CREATE UNIQUE INDEX "ExternalAccount_active_identity_key" ON "ExternalAccount"("platformId", COALESCE("customerId", ''), "currency", "identityKey") WHERE "deletedAt" IS NULL;
-- At most one default UMA deposit account per customer.
CREATE UNIQUE INDEX "ExternalAccount_one_default_per_customer" ON "ExternalAccount"("customerId") WHERE "defaultUmaDepositAccount" AND "deletedAt" IS NULL;

CREATE TABLE "ExternalAccountOwnershipChallenge" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "externalAccountId" TEXT NOT NULL REFERENCES "ExternalAccount"("id"),
  "method" TEXT NOT NULL CHECK ("method" IN ('WALLET_SIGNATURE', 'LIVENESS')),
  "state" TEXT NOT NULL CHECK ("state" IN ('PENDING', 'SUCCEEDED', 'FAILED', 'ABANDONED')),
  "messageToSign" TEXT,
  "verificationLink" TEXT,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "completedAt" TIMESTAMP(3)
);
CREATE INDEX "ExternalAccountOwnershipChallenge_externalAccountId_createdAt_idx" ON "ExternalAccountOwnershipChallenge"("externalAccountId", "createdAt");
CREATE UNIQUE INDEX "ExternalAccountOwnershipChallenge_one_pending" ON "ExternalAccountOwnershipChallenge"("externalAccountId") WHERE "state" = 'PENDING';

CREATE TABLE "BeneficiaryTrustChallenge" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "externalAccountId" TEXT NOT NULL REFERENCES "ExternalAccount"("id"),
  "customerId" TEXT NOT NULL REFERENCES "Customer"("id"),
  "action" TEXT NOT NULL CHECK ("action" IN ('TRUST', 'UNTRUST')),
  "factor" TEXT NOT NULL CHECK ("factor" IN ('SMS_OTP')),
  "codeHash" TEXT,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "state" TEXT NOT NULL CHECK ("state" IN ('PENDING', 'CONFIRMED', 'FAILED', 'ABANDONED')),
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "completedAt" TIMESTAMP(3)
);
CREATE INDEX "BeneficiaryTrustChallenge_externalAccountId_createdAt_idx" ON "BeneficiaryTrustChallenge"("externalAccountId", "createdAt");
CREATE UNIQUE INDEX "BeneficiaryTrustChallenge_one_pending" ON "BeneficiaryTrustChallenge"("externalAccountId") WHERE "state" = 'PENDING';
