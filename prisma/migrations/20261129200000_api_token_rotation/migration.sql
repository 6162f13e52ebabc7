-- API secret rotation with an overlap window (POST /tokens/{id}/rotate, lib/tokens/rotation.ts):
-- the replaced secret's hash is kept beside the new one and accepted until it expires, on the
-- platform's clock. One previous secret at a time; a rotation within the window replaces it.
ALTER TABLE "ApiToken"
  ADD COLUMN "previousSecretHash" TEXT,
  ADD COLUMN "previousSecretHashVersion" INTEGER,
  ADD COLUMN "previousSecretExpiresAt" TIMESTAMP(3),
  ADD COLUMN "rotatedAt" TIMESTAMP(3);
