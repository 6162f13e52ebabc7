-- Staff invitations by one-time link (issue 26, point 8): the admin no longer sees or picks the
-- new member's password; only the link token's keyed hash is stored.
CREATE TABLE "StaffInvitation" (
  "id" TEXT NOT NULL,
  "platformId" TEXT NOT NULL,
  "email" TEXT NOT NULL,
  "role" TEXT NOT NULL,
  "tokenHash" TEXT NOT NULL,
  "invitedBy" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "acceptedAt" TIMESTAMP(3),
  "revokedAt" TIMESTAMP(3),
  "staffUserId" TEXT,
  CONSTRAINT "StaffInvitation_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "StaffInvitation_tokenHash_key" ON "StaffInvitation"("tokenHash");
CREATE INDEX "StaffInvitation_platformId_createdAt_id_idx" ON "StaffInvitation"("platformId", "createdAt", "id");
