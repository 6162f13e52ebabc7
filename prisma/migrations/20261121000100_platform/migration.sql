-- Platforms, API tokens, idempotency records, the event outbox and the job queue.
CREATE TABLE "Platform" (
  "id" TEXT PRIMARY KEY,
  "name" TEXT NOT NULL,
  "umaDomain" TEXT NOT NULL,
  "proxyUmaSubdomain" TEXT,
  "webhookEndpoint" TEXT,
  "isRegulatedFinancialInstitution" BOOLEAN NOT NULL DEFAULT false,
  "embeddedWalletConfig" JSONB,
  "cardTokenization2faConfig" JSONB,
  "clockOffsetMs" BIGINT NOT NULL DEFAULT 0,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);

CREATE TABLE "PlatformCurrency" (
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "currencyCode" TEXT NOT NULL,
  "minAmount" BIGINT NOT NULL CHECK ("minAmount" >= 0),
  "maxAmount" BIGINT NOT NULL CHECK ("maxAmount" >= "minAmount"),
  "requiredCounterpartyFields" JSONB NOT NULL,
  "enabledTransactionTypes" TEXT[] NOT NULL,
  "position" INTEGER NOT NULL,
  PRIMARY KEY ("platformId", "currencyCode")
);

CREATE TABLE "FeeConfig" (
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "feeType" TEXT NOT NULL,
  "sourceCurrency" TEXT NOT NULL,
  "variableFeeBps" INTEGER NOT NULL CHECK ("variableFeeBps" BETWEEN 0 AND 10000),
  "fixedFeeAmount" BIGINT NOT NULL CHECK ("fixedFeeAmount" >= 0),
  "fixedFeeCurrency" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  PRIMARY KEY ("platformId", "feeType", "sourceCurrency")
);

CREATE TABLE "ApiToken" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "name" TEXT NOT NULL,
  "permissions" TEXT[] NOT NULL,
  "clientId" TEXT NOT NULL UNIQUE,
  "secretHash" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  "deletedAt" TIMESTAMP(3)
);
CREATE INDEX "ApiToken_platformId_createdAt_idx" ON "ApiToken"("platformId", "createdAt");

CREATE TABLE "IdempotencyRecord" (
  "platformId" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  "requestHash" TEXT NOT NULL,
  "state" TEXT NOT NULL CHECK ("state" IN ('PENDING', 'DONE')),
  "responseStatus" INTEGER,
  "responseBody" TEXT,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  PRIMARY KEY ("platformId", "key")
);
CREATE INDEX "IdempotencyRecord_expiresAt_idx" ON "IdempotencyRecord"("expiresAt");

CREATE TABLE "Event" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "type" TEXT NOT NULL,
  "payload" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'PENDING',
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "nextAttemptAt" TIMESTAMP(3),
  "deliveredAt" TIMESTAMP(3)
);
CREATE INDEX "Event_platformId_createdAt_idx" ON "Event"("platformId", "createdAt");
CREATE INDEX "Event_status_nextAttemptAt_idx" ON "Event"("status", "nextAttemptAt");

CREATE TABLE "Job" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "kind" TEXT NOT NULL,
  "payload" JSONB NOT NULL,
  "runAt" TIMESTAMP(3) NOT NULL,
  "state" TEXT NOT NULL DEFAULT 'PENDING' CHECK ("state" IN ('PENDING', 'RUNNING', 'DONE', 'FAILED')),
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "lastError" TEXT,
  "lockedAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "doneAt" TIMESTAMP(3)
);
CREATE INDEX "Job_state_runAt_idx" ON "Job"("state", "runAt");
