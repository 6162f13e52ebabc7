-- Internal accounts and the double-entry ledger.
CREATE TABLE "InternalAccount" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT,
  "type" TEXT NOT NULL CHECK ("type" IN ('INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET')),
  "status" TEXT NOT NULL CHECK ("status" IN ('PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED')),
  "currency" TEXT NOT NULL,
  "privateEnabled" BOOLEAN,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "InternalAccount_platformId_customerId_idx" ON "InternalAccount"("platformId", "customerId");
CREATE INDEX "InternalAccount_platformId_createdAt_idx" ON "InternalAccount"("platformId", "createdAt");
-- At most one platform-owned account per currency and type.
CREATE UNIQUE INDEX "InternalAccount_platform_currency_key" ON "InternalAccount"("platformId", "currency", "type") WHERE "customerId" IS NULL;

CREATE TABLE "LedgerAccount" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "currency" TEXT NOT NULL,
  "internalAccountId" TEXT REFERENCES "InternalAccount"("id"),
  "bucket" TEXT NOT NULL CHECK ("bucket" IN ('AVAILABLE', 'HELD', 'PENDING', 'SYSTEM')),
  "name" TEXT NOT NULL,
  "allowNegative" BOOLEAN NOT NULL,
  "balance" BIGINT NOT NULL DEFAULT 0,
  "createdAt" TIMESTAMP(3) NOT NULL,
  -- The backstop of "no internal account goes negative": even a bug cannot commit it.
  CONSTRAINT "LedgerAccount_no_overdraft" CHECK ("allowNegative" OR "balance" >= 0)
);
CREATE INDEX "LedgerAccount_platformId_currency_idx" ON "LedgerAccount"("platformId", "currency");
CREATE INDEX "LedgerAccount_internalAccountId_idx" ON "LedgerAccount"("internalAccountId");

CREATE TABLE "LedgerTransfer" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "kind" TEXT NOT NULL,
  "transactionId" TEXT,
  "description" TEXT,
  "createdAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "LedgerTransfer_platformId_createdAt_idx" ON "LedgerTransfer"("platformId", "createdAt");
CREATE INDEX "LedgerTransfer_transactionId_idx" ON "LedgerTransfer"("transactionId");

CREATE TABLE "LedgerEntry" (
  "id" TEXT PRIMARY KEY,
  "transferId" TEXT NOT NULL REFERENCES "LedgerTransfer"("id"),
  "ledgerAccountId" TEXT NOT NULL REFERENCES "LedgerAccount"("id"),
  "currency" TEXT NOT NULL,
  "amount" BIGINT NOT NULL CHECK ("amount" <> 0),
  "createdAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "LedgerEntry_ledgerAccountId_idx" ON "LedgerEntry"("ledgerAccountId");
CREATE INDEX "LedgerEntry_transferId_idx" ON "LedgerEntry"("transferId");
