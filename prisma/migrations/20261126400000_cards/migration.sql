-- Cards (lib/cards): cards, card transactions, processor events and reveal records.
CREATE TABLE "Card" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "cardholderId" TEXT NOT NULL,
  "platformCardId" TEXT NOT NULL,
  "state" TEXT NOT NULL,
  "stateReason" TEXT,
  "brand" TEXT NOT NULL,
  "form" TEXT NOT NULL,
  "last4" TEXT NOT NULL,
  "expMonth" INTEGER NOT NULL,
  "expYear" INTEGER NOT NULL,
  "fundingSources" JSONB NOT NULL,
  "maxSpendPerTransaction" BIGINT,
  "currency" TEXT NOT NULL,
  "processorRef" TEXT,
  "issuerRef" TEXT,
  "panSealed" TEXT NOT NULL,
  "cvvSealed" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  CONSTRAINT "Card_state_check" CHECK ("state" IN ('PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'))
);
CREATE UNIQUE INDEX "Card_platformId_platformCardId_key" ON "Card" ("platformId", "platformCardId");
CREATE INDEX "Card_platformId_createdAt_idx" ON "Card" ("platformId", "createdAt");
CREATE INDEX "Card_platformId_cardholderId_idx" ON "Card" ("platformId", "cardholderId");

CREATE TABLE "CardTransaction" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "cardId" TEXT NOT NULL,
  "customerId" TEXT NOT NULL,
  "platformCustomerId" TEXT NOT NULL,
  "issuerTransactionToken" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "direction" TEXT NOT NULL,
  "merchant" JSONB NOT NULL,
  "currency" TEXT NOT NULL,
  "accountId" TEXT NOT NULL,
  "authorizedAmount" BIGINT NOT NULL,
  "settledAmount" BIGINT NOT NULL,
  "refundedAmount" BIGINT NOT NULL,
  "openAmount" BIGINT NOT NULL,
  "pullCount" INTEGER NOT NULL,
  "pullTotal" BIGINT NOT NULL,
  "pullPending" INTEGER NOT NULL,
  "settlementCount" INTEGER NOT NULL,
  "refundCount" INTEGER NOT NULL,
  "scenario" TEXT NOT NULL,
  "singleMessage" BOOLEAN NOT NULL,
  "authorizedAt" TIMESTAMP(3) NOT NULL,
  "lastEventAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  CONSTRAINT "CardTransaction_amounts_check" CHECK ("openAmount" >= 0 AND "refundedAmount" <= "settledAmount")
);
CREATE INDEX "CardTransaction_platformId_createdAt_idx" ON "CardTransaction" ("platformId", "createdAt");
CREATE INDEX "CardTransaction_cardId_createdAt_idx" ON "CardTransaction" ("cardId", "createdAt");

CREATE TABLE "CardEvent" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "cardId" TEXT NOT NULL,
  "cardTransactionId" TEXT,
  "issuerTransactionToken" TEXT NOT NULL,
  "kind" TEXT NOT NULL,
  "amount" BIGINT NOT NULL,
  "outcome" TEXT NOT NULL,
  "declineReason" TEXT,
  "details" JSONB NOT NULL,
  "reversedAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "CardEvent_cardId_createdAt_idx" ON "CardEvent" ("cardId", "createdAt");
CREATE INDEX "CardEvent_cardTransactionId_idx" ON "CardEvent" ("cardTransactionId");

CREATE TABLE "CardReveal" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "cardId" TEXT NOT NULL,
  "actorKind" TEXT NOT NULL,
  "actorId" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "usedAt" TIMESTAMP(3)
);
CREATE INDEX "CardReveal_cardId_createdAt_idx" ON "CardReveal" ("cardId", "createdAt");
