-- Stablecoin issuance (lib/stablecoins): provider account links (credentials sealed with the
-- service vault), registered stablecoins and their mint/burn operations.
CREATE TABLE "StablecoinProviderAccount" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "provider" TEXT NOT NULL,
  "providerAccountId" TEXT NOT NULL,
  "providerEnvironment" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "sealedCredentials" TEXT NOT NULL,
  "lastVerifiedAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);
-- One link per provider account: a second link of the same account is a conflict.
CREATE UNIQUE INDEX "StablecoinProviderAccount_platform_account_key"
  ON "StablecoinProviderAccount" ("platformId", "provider", "providerEnvironment", "providerAccountId");
CREATE INDEX "StablecoinProviderAccount_platformId_createdAt_idx" ON "StablecoinProviderAccount" ("platformId", "createdAt");

CREATE TABLE "Stablecoin" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "stablecoinProviderAccountId" TEXT NOT NULL REFERENCES "StablecoinProviderAccount"("id"),
  "provider" TEXT NOT NULL,
  "providerEnvironment" TEXT NOT NULL,
  "providerTokenIdentifier" TEXT NOT NULL,
  "networkTokenIdentifier" TEXT NOT NULL,
  "network" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "symbol" TEXT NOT NULL,
  "baseCurrency" TEXT NOT NULL,
  "decimals" INTEGER NOT NULL,
  "issuanceStatus" TEXT NOT NULL,
  "gridOperationsStatus" TEXT NOT NULL,
  "currency" TEXT,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);
-- A provider token is registered once per platform and environment.
CREATE UNIQUE INDEX "Stablecoin_platform_token_key"
  ON "Stablecoin" ("platformId", "provider", "providerEnvironment", "providerTokenIdentifier");
CREATE INDEX "Stablecoin_platformId_createdAt_idx" ON "Stablecoin" ("platformId", "createdAt");

CREATE TABLE "StablecoinOperation" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "stablecoinId" TEXT NOT NULL REFERENCES "Stablecoin"("id"),
  "operationType" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "amount" BIGINT NOT NULL CHECK ("amount" > 0),
  "fiatAmount" BIGINT NOT NULL CHECK ("fiatAmount" > 0),
  "provider" TEXT NOT NULL,
  "providerEnvironment" TEXT NOT NULL,
  "stablecoinProviderAccountId" TEXT NOT NULL,
  "source" JSONB NOT NULL,
  "destination" JSONB NOT NULL,
  "fundingInstructions" JSONB,
  "estimatedDelivery" JSONB,
  "plan" JSONB NOT NULL,
  "providerReference" TEXT,
  "providerStatus" TEXT,
  "failureReason" TEXT,
  "description" TEXT,
  "expiresAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "StablecoinOperation_stablecoinId_createdAt_idx" ON "StablecoinOperation" ("stablecoinId", "createdAt");
CREATE INDEX "StablecoinOperation_platformId_createdAt_idx" ON "StablecoinOperation" ("platformId", "createdAt");
