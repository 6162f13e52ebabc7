-- Strong Customer Authentication (lib/sca): enrolled factors, login challenges, SCA sessions,
-- login-security state and liveness-gated factor resets.
CREATE TABLE "ScaFactor" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT NOT NULL REFERENCES "Customer"("id"),
  "type" TEXT NOT NULL CHECK ("type" IN ('TOTP', 'PASSKEY')),
  "state" TEXT NOT NULL CHECK ("state" IN ('PENDING', 'ACTIVE')),
  "name" TEXT,
  "secretSealed" TEXT,
  "lastStep" BIGINT,
  "recoveryCodes" TEXT[] NOT NULL DEFAULT '{}',
  "credentialId" TEXT,
  "publicKey" TEXT,
  "counter" BIGINT NOT NULL DEFAULT 0,
  "transports" TEXT[] NOT NULL DEFAULT '{}',
  "challenge" TEXT,
  "attempts" INTEGER NOT NULL DEFAULT 0 CHECK ("attempts" >= 0),
  "expiresAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);
CREATE UNIQUE INDEX "ScaFactor_credentialId_key" ON "ScaFactor"("credentialId");
CREATE INDEX "ScaFactor_customerId_type_state_idx" ON "ScaFactor"("customerId", "type", "state");
-- One factor of each kind per customer ("A customer may have only one passkey"): the database
-- keeps it true however many confirmations race.
CREATE UNIQUE INDEX "ScaFactor_one_active_per_type" ON "ScaFactor"("customerId", "type") WHERE "state" = 'ACTIVE';

CREATE TABLE "ScaLoginChallenge" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT NOT NULL REFERENCES "Customer"("id"),
  "factor" TEXT NOT NULL CHECK ("factor" IN ('SMS_OTP', 'TOTP', 'PASSKEY')),
  "challenge" TEXT,
  "state" TEXT NOT NULL CHECK ("state" IN ('PENDING', 'USED', 'SUPERSEDED')),
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "ScaLoginChallenge_customerId_createdAt_idx" ON "ScaLoginChallenge"("customerId", "createdAt");

CREATE TABLE "ScaSession" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT NOT NULL REFERENCES "Customer"("id"),
  "factor" TEXT NOT NULL,
  "endUserIpAddress" TEXT,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "revokedAt" TIMESTAMP(3)
);
CREATE INDEX "ScaSession_customerId_expiresAt_idx" ON "ScaSession"("customerId", "expiresAt");

CREATE TABLE "ScaSecurityState" (
  "customerId" TEXT PRIMARY KEY REFERENCES "Customer"("id"),
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "failedAttempts" INTEGER NOT NULL DEFAULT 0 CHECK ("failedAttempts" >= 0),
  "lockedUntil" TIMESTAMP(3),
  "suspended" BOOLEAN NOT NULL DEFAULT false,
  "updatedAt" TIMESTAMP(3) NOT NULL
);

CREATE TABLE "ScaReset" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT NOT NULL REFERENCES "Customer"("id"),
  "factor" TEXT NOT NULL CHECK ("factor" IN ('SMS_OTP', 'TOTP', 'PASSKEY')),
  "status" TEXT NOT NULL CHECK ("status" IN ('INITIATED', 'PENDING_REVIEW', 'LIVENESS_PASSED', 'COMPLETED', 'REJECTED', 'EXPIRED')),
  "livenessRef" TEXT NOT NULL,
  "sandboxOutcome" TEXT,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "completedAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "ScaReset_customerId_createdAt_idx" ON "ScaReset"("customerId", "createdAt");
