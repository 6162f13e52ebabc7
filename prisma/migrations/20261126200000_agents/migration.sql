-- Agents (lib/agents): software acting for one customer under a policy. The access token and the
-- device codes are never stored, only keyed hashes of them (lib/core/crypto/vault.ts tag).
CREATE TABLE "Agent" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "isPaused" BOOLEAN NOT NULL DEFAULT false,
  -- AgentPolicy as the reference shapes it (amounts as JSON numbers).
  "policy" JSONB NOT NULL,
  -- Keyed hash of the access token issued at device-code redemption (null until connected).
  "tokenHash" TEXT UNIQUE,
  "connectedAt" TIMESTAMP(3),
  "deletedAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "Agent_platformId_createdAt_idx" ON "Agent"("platformId", "createdAt");

CREATE TABLE "AgentDeviceCode" (
  -- Keyed hash of the code: the platform and the agent software hold the code itself.
  "codeHash" TEXT PRIMARY KEY,
  "agentId" TEXT NOT NULL REFERENCES "Agent"("id"),
  "platformId" TEXT NOT NULL,
  -- ACTIVE -> REDEEMED | SUPERSEDED (a newer code was issued) | REVOKED (agent deleted)
  "state" TEXT NOT NULL DEFAULT 'ACTIVE' CHECK ("state" IN ('ACTIVE', 'REDEEMED', 'SUPERSEDED', 'REVOKED')),
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "redeemedAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "AgentDeviceCode_agentId_idx" ON "AgentDeviceCode"("agentId");

-- Spend of an agent in one UTC day ('D2026-11-26') or month ('M2026-11') of the platform's clock,
-- in the policy currency. Raised by one conditional UPDATE in the transaction of the action, so
-- concurrent actions can never together pass a limit.
CREATE TABLE "AgentUsage" (
  "agentId" TEXT NOT NULL REFERENCES "Agent"("id"),
  "period" TEXT NOT NULL,
  "amount" BIGINT NOT NULL DEFAULT 0 CHECK ("amount" >= 0),
  "count" INTEGER NOT NULL DEFAULT 0 CHECK ("count" >= 0),
  PRIMARY KEY ("agentId", "period")
);

CREATE TABLE "AgentAction" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "agentId" TEXT NOT NULL REFERENCES "Agent"("id"),
  "customerId" TEXT NOT NULL,
  "platformCustomerId" TEXT NOT NULL,
  -- PENDING_APPROVAL | APPROVED | REJECTED | FAILED (moves in lib/agents/state.ts)
  "status" TEXT NOT NULL CHECK ("status" IN ('PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED')),
  "type" TEXT NOT NULL CHECK ("type" IN ('EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN')),
  "quoteId" TEXT,
  "transactionId" TEXT UNIQUE,
  "transferDetails" JSONB,
  -- What was counted against the limits, given back if the action is rejected or fails:
  -- {"amount": <policy currency units>, "periods": ["D...", "M..."]}.
  "usage" JSONB,
  "rejectionReason" TEXT,
  "failureReason" TEXT,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "AgentAction_platformId_status_createdAt_idx" ON "AgentAction"("platformId", "status", "createdAt");
CREATE INDEX "AgentAction_agentId_createdAt_idx" ON "AgentAction"("agentId", "createdAt");
