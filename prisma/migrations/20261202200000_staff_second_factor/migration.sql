-- Staff second factor (issue 26, point 8): a TOTP secret per staff user (sealed), its one-time
-- recovery codes (keyed hashes) and the sign-in challenges between password and code.
ALTER TABLE "StaffUser" ADD COLUMN "totpSecret" TEXT;
ALTER TABLE "StaffUser" ADD COLUMN "totpPendingSecret" TEXT;
ALTER TABLE "StaffUser" ADD COLUMN "totpLastStep" BIGINT;
ALTER TABLE "StaffUser" ADD COLUMN "totpEnrolledAt" TIMESTAMP(3);

CREATE TABLE "StaffRecoveryCode" (
  "staffUserId" TEXT NOT NULL,
  "codeHash" TEXT NOT NULL,
  "usedAt" TIMESTAMP(3),
  CONSTRAINT "StaffRecoveryCode_pkey" PRIMARY KEY ("staffUserId", "codeHash")
);

CREATE TABLE "StaffSignInChallenge" (
  "id" TEXT NOT NULL,
  "staffUserId" TEXT NOT NULL,
  "address" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "usedAt" TIMESTAMP(3),
  CONSTRAINT "StaffSignInChallenge_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "StaffSignInChallenge_staffUserId_idx" ON "StaffSignInChallenge"("staffUserId");
