CREATE TABLE "Invitation" (
  "id" TEXT PRIMARY KEY,
  "code" TEXT NOT NULL,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "inviterCustomerId" TEXT NOT NULL REFERENCES "Customer"("id"),
  "inviterUma" TEXT NOT NULL,
  "firstName" TEXT,
  "amountToSend" BIGINT CHECK ("amountToSend" > 0),
  "amountCurrency" TEXT,
  "url" TEXT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'PENDING' CHECK ("status" IN ('PENDING', 'CLAIMED', 'CANCELLED')),
  "expiresAt" TIMESTAMP(3),
  "inviteeUma" TEXT,
  "inviteePlatformId" TEXT REFERENCES "Platform"("id"),
  "inviteeCustomerId" TEXT REFERENCES "Customer"("id"),
  "claimedAt" TIMESTAMP(3),
  "cancelledAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  CHECK (("amountToSend" IS NULL) = ("amountCurrency" IS NULL)),
  -- A claimed invitation always names its invitee; nothing else does.
  CHECK (("status" = 'CLAIMED') = ("claimedAt" IS NOT NULL)),
  CHECK (("status" = 'CLAIMED') = ("inviteeUma" IS NOT NULL AND "inviteePlatformId" IS NOT NULL AND "inviteeCustomerId" IS NOT NULL)),
  CHECK (("status" = 'CANCELLED') = ("cancelledAt" IS NOT NULL))
);
CREATE UNIQUE INDEX "Invitation_code_key" ON "Invitation"("code");
CREATE INDEX "Invitation_platformId_createdAt_idx" ON "Invitation"("platformId", "createdAt");
