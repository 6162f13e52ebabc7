-- Staff session revocation by generation (issue 26, point 8): each staff user has a session
-- generation, each console session the generation it was opened under; a session whose
-- generation is not its user's current one is refused. The generation is bumped by a password
-- change, a role change, a disabling, an admin's reset of the second factor and "Sign out
-- everywhere". It replaces sessionsValidFrom: sessions that column had already cut off are
-- revoked here, so none comes back to life when the column goes.
ALTER TABLE "StaffUser" ADD COLUMN "sessionGeneration" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "StaffSession" ADD COLUMN "generation" INTEGER NOT NULL DEFAULT 0;

UPDATE "StaffSession" AS s SET "revokedAt" = u."sessionsValidFrom"
FROM "StaffUser" AS u
WHERE s."staffUserId" = u."id" AND s."revokedAt" IS NULL AND s."createdAt" < u."sessionsValidFrom";

ALTER TABLE "StaffUser" DROP COLUMN "sessionsValidFrom";
