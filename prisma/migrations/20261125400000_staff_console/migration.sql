-- Admin console staff (lib/staff): users with a slow password hash and a role, their sessions,
-- the throttle on failed sign-ins, and the audit trail of staff actions.
CREATE TABLE "StaffUser" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "email" TEXT NOT NULL,
  "passwordHash" TEXT NOT NULL,
  "role" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  "disabledAt" TIMESTAMP(3),
  "sessionsValidFrom" TIMESTAMP(3) NOT NULL
);
CREATE UNIQUE INDEX "StaffUser_email_key" ON "StaffUser" ("email");
CREATE INDEX "StaffUser_platformId_createdAt_idx" ON "StaffUser" ("platformId", "createdAt");

CREATE TABLE "StaffSession" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "staffUserId" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "revokedAt" TIMESTAMP(3)
);
CREATE INDEX "StaffSession_staffUserId_idx" ON "StaffSession" ("staffUserId");

CREATE TABLE "StaffSignInThrottle" (
  "key" TEXT NOT NULL PRIMARY KEY,
  "failures" INTEGER NOT NULL,
  "windowStartedAt" TIMESTAMP(3) NOT NULL,
  "lockedUntil" TIMESTAMP(3)
);

CREATE TABLE "StaffAuditEntry" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "staffUserId" TEXT NOT NULL,
  "staffEmail" TEXT NOT NULL,
  "action" TEXT NOT NULL,
  "objectId" TEXT NOT NULL,
  "details" JSONB NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "StaffAuditEntry_platformId_objectId_createdAt_idx" ON "StaffAuditEntry" ("platformId", "objectId", "createdAt");
CREATE INDEX "StaffAuditEntry_platformId_createdAt_idx" ON "StaffAuditEntry" ("platformId", "createdAt");

-- Browsers signed in to the /wallet pages (the cookie's token hashed), bound to a wallet session.
CREATE TABLE "WalletWebSession" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "platformId" TEXT NOT NULL,
  "customerId" TEXT NOT NULL,
  "accountId" TEXT NOT NULL,
  "authSessionId" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "revokedAt" TIMESTAMP(3),
  "registrationChallenge" TEXT
);
CREATE INDEX "WalletWebSession_authSessionId_idx" ON "WalletWebSession" ("authSessionId");

-- The object an event is about (its data.id), so the console lists an object's webhook deliveries.
ALTER TABLE "Event" ADD COLUMN "subjectId" TEXT;
UPDATE "Event" SET "subjectId" = substring("payload" from '"data":\{"id":"([^"\\]+)"') WHERE "subjectId" IS NULL;
CREATE INDEX "Event_subjectId_idx" ON "Event" ("subjectId");
