-- One module for one-time codes (lib/codes): quote SCA codes, beneficiary trust codes, contact
-- verification codes and embedded-wallet OTPs are issued, stored and verified in one table, with
-- the attempt cap enforced by one conditional UPDATE per attempt.
--
-- Codes outstanding when this runs are not carried over: their stored forms (salted scrypt,
-- keyed tags bound to other inputs, or none in sandbox) cannot be turned into the new keyed hash
-- without the code. They live minutes; a customer who had one asks for a new one (resend, a new
-- trust start, a new verify-email/verify-phone, a new OTP challenge).
CREATE TABLE "OneTimeCode" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  -- What the code is for (QUOTE_SCA, BENEFICIARY_TRUST, CONTACT_EMAIL, CONTACT_PHONE, WALLET_OTP)
  -- and whose it is (the quote, external account, customer or credential).
  "purpose" TEXT NOT NULL,
  "subject" TEXT NOT NULL,
  -- What else it must match to count: the challenge it belongs to, or a hash of the address it was sent to.
  "binding" TEXT,
  -- hmac-sha256$<hex>: keyed with a subkey of the service master key, over purpose, subject and code.
  "codeHash" TEXT NOT NULL,
  -- Wrong codes tried against it; it is dead at maxAttempts.
  "attempts" INTEGER NOT NULL DEFAULT 0 CHECK ("attempts" >= 0),
  "maxAttempts" INTEGER NOT NULL CHECK ("maxAttempts" > 0),
  "state" TEXT NOT NULL DEFAULT 'ACTIVE' CHECK ("state" IN ('ACTIVE', 'USED', 'SUPERSEDED', 'EXHAUSTED')),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "usedAt" TIMESTAMP(3),
  CHECK (("state" = 'USED') = ("usedAt" IS NOT NULL)),
  CHECK ("attempts" <= "maxAttempts")
);
CREATE INDEX "OneTimeCode_purpose_subject_createdAt_idx" ON "OneTimeCode"("purpose", "subject", "createdAt");
CREATE INDEX "OneTimeCode_expiresAt_idx" ON "OneTimeCode"("expiresAt");
-- At most one live code per purpose and subject: issuing a new one supersedes the old one.
CREATE UNIQUE INDEX "OneTimeCode_active_key" ON "OneTimeCode"("purpose", "subject") WHERE "state" = 'ACTIVE';

DROP TABLE "ContactVerificationCode";
ALTER TABLE "OtpChallenge" DROP COLUMN "codeTag", DROP COLUMN "attempts";
ALTER TABLE "BeneficiaryTrustChallenge" DROP COLUMN "codeHash", DROP COLUMN "attempts";
-- Quotes kept their SCA code's keyed tag and attempt count in scaChallenge.
UPDATE "Quote" SET "scaChallenge" = "scaChallenge" - 'codeHash' - 'attempts' - 'sentAt'
WHERE "scaChallenge" IS NOT NULL;
