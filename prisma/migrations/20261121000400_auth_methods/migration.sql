CREATE TABLE "AuthMethod" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "accountId" TEXT NOT NULL REFERENCES "InternalAccount"("id"),
  "type" TEXT NOT NULL CHECK ("type" IN ('PASSKEY', 'OAUTH', 'EMAIL_OTP', 'SMS_OTP')),
  "nickname" TEXT,
  "email" TEXT,
  "phoneNumber" TEXT,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  "revokedAt" TIMESTAMP(3)
);
CREATE INDEX "AuthMethod_accountId_idx" ON "AuthMethod"("accountId");
CREATE INDEX "AuthMethod_platformId_email_idx" ON "AuthMethod"("platformId", "email");
-- Rule 3: at most one active EMAIL_OTP and one active SMS_OTP per account.
CREATE UNIQUE INDEX "AuthMethod_one_otp_per_account" ON "AuthMethod"("accountId", "type") WHERE "revokedAt" IS NULL AND "type" IN ('EMAIL_OTP', 'SMS_OTP');
