CREATE TABLE "Verification" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT NOT NULL REFERENCES "Customer"("id"),
  "status" TEXT NOT NULL CHECK ("status" IN ('RESOLVE_ERRORS', 'PENDING_MANUAL_REVIEW', 'IN_PROGRESS', 'APPROVED', 'REJECTED', 'READY_FOR_VERIFICATION')),
  "errors" JSONB NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "Verification_platformId_createdAt_idx" ON "Verification"("platformId", "createdAt");
CREATE INDEX "Verification_platformId_customerId_createdAt_idx" ON "Verification"("platformId", "customerId", "createdAt");
-- At most one open verification per customer: re-submissions re-evaluate it.
CREATE UNIQUE INDEX "Verification_open_customerId_key" ON "Verification"("customerId") WHERE "status" IN ('RESOLVE_ERRORS', 'PENDING_MANUAL_REVIEW');

CREATE TABLE "BeneficialOwner" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT NOT NULL REFERENCES "Customer"("id"),
  "roles" TEXT[] NOT NULL CHECK (cardinality("roles") >= 1 AND "roles" <@ ARRAY['UBO', 'DIRECTOR', 'COMPANY_OFFICER', 'CONTROL_PERSON', 'TRUSTEE', 'GENERAL_PARTNER']::TEXT[]),
  "ownershipPercentage" INTEGER NOT NULL CHECK ("ownershipPercentage" BETWEEN 0 AND 100),
  "personalInfo" JSONB NOT NULL,
  "kycStatus" TEXT NOT NULL CHECK ("kycStatus" IN ('UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD')),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "BeneficialOwner_platformId_customerId_createdAt_idx" ON "BeneficialOwner"("platformId", "customerId", "createdAt");
CREATE INDEX "BeneficialOwner_platformId_createdAt_idx" ON "BeneficialOwner"("platformId", "createdAt");

CREATE TABLE "Document" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "documentHolder" TEXT NOT NULL,
  "customerId" TEXT NOT NULL REFERENCES "Customer"("id"),
  "documentType" TEXT NOT NULL CHECK ("documentType" IN (
    'PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID', 'PROOF_OF_ADDRESS', 'BANK_STATEMENT', 'TAX_RETURN',
    'CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_INCORPORATION', 'ARTICLES_OF_ASSOCIATION', 'STATE_REGISTRY_EXCERPT',
    'GOOD_STANDING_CERTIFICATE', 'INFORMATION_STATEMENT', 'INCUMBENCY_CERTIFICATE', 'BUSINESS_LICENSE', 'SHAREHOLDER_REGISTER',
    'POWER_OF_ATTORNEY', 'UTILITY_BILL', 'ELECTRICITY_BILL', 'RENT_OR_LEASE_AGREEMENT', 'DIRECTOR_REGISTRY', 'TRUST_AGREEMENT',
    'STATE_COMPANY_REGISTRY', 'PARTNERSHIP_CONTROL_AGREEMENT', 'PARTNERSHIP_AGREEMENT', 'SELFIE', 'OTHER')),
  "side" TEXT CHECK ("side" IN ('FRONT', 'BACK')),
  "country" TEXT NOT NULL,
  "documentNumber" TEXT,
  "issuingAuthority" TEXT,
  "fileName" TEXT NOT NULL,
  "contentType" TEXT NOT NULL CHECK ("contentType" IN ('image/jpeg', 'image/png', 'application/pdf')),
  "size" INTEGER NOT NULL CHECK ("size" BETWEEN 1 AND 10485760),
  "sha256" TEXT NOT NULL,
  "content" BYTEA NOT NULL,
  "submittedAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "Document_platformId_createdAt_idx" ON "Document"("platformId", "createdAt");
CREATE INDEX "Document_platformId_documentHolder_createdAt_idx" ON "Document"("platformId", "documentHolder", "createdAt");
CREATE INDEX "Document_customerId_idx" ON "Document"("customerId");

CREATE TABLE "KycLink" (
  "tokenHash" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT NOT NULL REFERENCES "Customer"("id"),
  "redirectUri" TEXT,
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "usedAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "KycLink_customerId_idx" ON "KycLink"("customerId");
