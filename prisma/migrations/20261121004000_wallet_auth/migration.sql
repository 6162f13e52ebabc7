-- Embedded-wallet authentication: passkey and OAuth credential details, sessions, OTP
-- challenges, pending signed requests, delegated keys and wallet secrets.
ALTER TABLE "AuthMethod"
  ADD COLUMN "credentialId" TEXT,
  ADD COLUMN "credentialPublicKey" TEXT,
  ADD COLUMN "signCount" BIGINT,
  ADD COLUMN "transports" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  ADD COLUMN "registrationChallengeHash" TEXT,
  ADD COLUMN "oidcIssuer" TEXT,
  ADD COLUMN "oidcAudience" TEXT,
  ADD COLUMN "oidcSubject" TEXT;
ALTER TABLE "AuthMethod" ADD CONSTRAINT "AuthMethod_passkey_fields" CHECK ("type" <> 'PASSKEY' OR ("credentialId" IS NOT NULL AND "credentialPublicKey" IS NOT NULL AND "signCount" IS NOT NULL));
ALTER TABLE "AuthMethod" ADD CONSTRAINT "AuthMethod_oauth_fields" CHECK ("type" <> 'OAUTH' OR ("oidcIssuer" IS NOT NULL AND "oidcAudience" IS NOT NULL AND "oidcSubject" IS NOT NULL));
-- Rule 3: distinct passkeys per account, one OAUTH credential per provider identity.
CREATE UNIQUE INDEX "AuthMethod_passkey_per_account" ON "AuthMethod"("accountId", "credentialId") WHERE "revokedAt" IS NULL AND "type" = 'PASSKEY';
CREATE UNIQUE INDEX "AuthMethod_oauth_identity_per_account" ON "AuthMethod"("accountId", "oidcIssuer", "oidcSubject") WHERE "revokedAt" IS NULL AND "type" = 'OAUTH';
-- An integrator's WebAuthn registration challenge registers one passkey, ever.
CREATE UNIQUE INDEX "AuthMethod_registration_challenge" ON "AuthMethod"("platformId", "registrationChallengeHash") WHERE "registrationChallengeHash" IS NOT NULL;

CREATE TABLE "AuthSession" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "accountId" TEXT NOT NULL REFERENCES "InternalAccount"("id"),
  "authMethodId" TEXT NOT NULL REFERENCES "AuthMethod"("id"),
  "publicKey" TEXT NOT NULL CHECK ("publicKey" ~ '^0[23][0-9a-f]{64}$'),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "revokedAt" TIMESTAMP(3)
);
CREATE INDEX "AuthSession_accountId_idx" ON "AuthSession"("accountId");
CREATE INDEX "AuthSession_publicKey_idx" ON "AuthSession"("publicKey");

CREATE TABLE "OtpChallenge" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "authMethodId" TEXT NOT NULL REFERENCES "AuthMethod"("id"),
  "codeTag" TEXT NOT NULL,
  "targetPublicKey" TEXT NOT NULL,
  "targetSecretKeySealed" TEXT NOT NULL,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "consumedAt" TIMESTAMP(3)
);
CREATE INDEX "OtpChallenge_authMethodId_createdAt_idx" ON "OtpChallenge"("authMethodId", "createdAt");

CREATE TABLE "SignedRequest" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "kind" TEXT NOT NULL,
  "accountIds" TEXT[] NOT NULL,
  "method" TEXT NOT NULL,
  "path" TEXT NOT NULL,
  "bodyHash" TEXT NOT NULL,
  "payloadToSign" TEXT NOT NULL,
  "boundPublicKey" TEXT,
  "sessionId" TEXT,
  "excludeAuthMethodId" TEXT,
  "context" JSONB NOT NULL,
  "sealedContext" TEXT,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "consumedAt" TIMESTAMP(3)
);
CREATE INDEX "SignedRequest_platformId_createdAt_idx" ON "SignedRequest"("platformId", "createdAt");

CREATE TABLE "DelegatedKey" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "accountId" TEXT NOT NULL REFERENCES "InternalAccount"("id"),
  "cardId" TEXT NOT NULL,
  "fundingSourceId" TEXT NOT NULL,
  "nickname" TEXT NOT NULL,
  "publicKey" TEXT NOT NULL,
  "secretKeySealed" TEXT,
  "status" TEXT NOT NULL CHECK ("status" IN ('PENDING', 'ACTIVE', 'REVOKED')),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  -- A revoked key keeps no key material.
  CHECK ("status" <> 'REVOKED' OR "secretKeySealed" IS NULL)
);
CREATE INDEX "DelegatedKey_accountId_idx" ON "DelegatedKey"("accountId");
CREATE INDEX "DelegatedKey_fundingSourceId_idx" ON "DelegatedKey"("fundingSourceId");
-- At most one ACTIVE delegated key per card funding source.
CREATE UNIQUE INDEX "DelegatedKey_one_active_per_funding_source" ON "DelegatedKey"("platformId", "fundingSourceId") WHERE "status" = 'ACTIVE';

CREATE TABLE "EmbeddedWalletSecret" (
  "accountId" TEXT PRIMARY KEY REFERENCES "InternalAccount"("id"),
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "seedSealed" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL
);
