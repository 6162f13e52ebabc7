-- API secrets were stored as bare SHA-256; they are now stored as HMAC-SHA256 under the service
-- master key (lib/auth/secrets.ts). A hash cannot be converted without the secret, so existing
-- rows keep their SHA-256 and are marked version 1: the next successful authentication with such
-- a token verifies it the old way once and rewrites it as version 2. The column's default is 1,
-- so a row written without a version is never checked as a keyed hash (it simply fails).
ALTER TABLE "ApiToken" ADD COLUMN "secretHashVersion" INTEGER NOT NULL DEFAULT 1;
