CREATE TABLE "ContactVerificationCode" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT NOT NULL REFERENCES "Customer"("id"),
  "channel" TEXT NOT NULL CHECK ("channel" IN ('EMAIL', 'PHONE')),
  "targetHash" TEXT NOT NULL,
  "codeHash" TEXT NOT NULL,
  "attempts" INTEGER NOT NULL DEFAULT 0 CHECK ("attempts" >= 0),
  "state" TEXT NOT NULL DEFAULT 'ACTIVE' CHECK ("state" IN ('ACTIVE', 'USED', 'SUPERSEDED', 'EXHAUSTED')),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "usedAt" TIMESTAMP(3),
  CHECK (("state" = 'USED') = ("usedAt" IS NOT NULL))
);
CREATE INDEX "ContactVerificationCode_customerId_channel_createdAt_idx" ON "ContactVerificationCode"("customerId", "channel", "createdAt");
-- At most one live code per customer and channel: sending a new one supersedes the old one.
CREATE UNIQUE INDEX "ContactVerificationCode_active_key" ON "ContactVerificationCode"("customerId", "channel") WHERE "state" = 'ACTIVE';
