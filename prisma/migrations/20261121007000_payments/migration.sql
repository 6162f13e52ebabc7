-- Receiver lookups, quotes, transactions.
CREATE TABLE "Lookup" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT,
  "kind" TEXT NOT NULL CHECK ("kind" IN ('UMA', 'EXTERNAL_ACCOUNT')),
  "target" TEXT NOT NULL,
  "supportedCurrencies" JSONB NOT NULL,
  "requiredPayerDataFields" JSONB NOT NULL,
  "resolution" JSONB NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "expiresAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "Lookup_platformId_createdAt_idx" ON "Lookup"("platformId", "createdAt");

CREATE TABLE "Transaction" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT,
  "platformCustomerId" TEXT,
  "type" TEXT NOT NULL CHECK ("type" IN ('INCOMING', 'OUTGOING')),
  "direction" TEXT NOT NULL CHECK ("direction" IN ('CREDIT', 'DEBIT')),
  "status" TEXT NOT NULL CHECK ("status" IN ('CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED')),
  "pendingReason" TEXT,
  "awaitingApproval" BOOLEAN NOT NULL DEFAULT false,
  "approvalDeadline" TIMESTAMP(3),
  "source" JSONB NOT NULL,
  "destination" JSONB NOT NULL,
  "internalAccountId" TEXT,
  "externalAccountId" TEXT,
  "sentCurrency" TEXT,
  "sentAmount" BIGINT CHECK ("sentAmount" IS NULL OR "sentAmount" >= 0),
  "receivedCurrency" TEXT,
  "receivedAmount" BIGINT CHECK ("receivedAmount" IS NULL OR "receivedAmount" >= 0),
  "fees" BIGINT CHECK ("fees" IS NULL OR "fees" >= 0),
  "platformFees" BIGINT CHECK ("platformFees" IS NULL OR "platformFees" >= 0),
  "exchangeRate" DOUBLE PRECISION,
  "rateDetails" JSONB,
  "quoteId" TEXT,
  "paymentRail" TEXT,
  "railSelectionMode" TEXT,
  "expectedSettlementAt" TIMESTAMP(3),
  "settlementTimelineSeconds" INTEGER,
  "failureReason" TEXT,
  "refund" JSONB,
  "counterpartyInformation" JSONB,
  "reference" TEXT,
  "description" TEXT,
  "remittanceInformation" TEXT,
  "scenario" TEXT,
  "plan" JSONB,
  "settledAt" TIMESTAMP(3),
  "receiptDeliveryConfirmedAt" TIMESTAMP(3),
  "agentId" TEXT,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  -- Only a pending transaction can wait for platform approval.
  CONSTRAINT "Transaction_approval_pending" CHECK (NOT "awaitingApproval" OR "status" = 'PENDING')
);
CREATE INDEX "Transaction_platformId_createdAt_idx" ON "Transaction"("platformId", "createdAt");
CREATE INDEX "Transaction_platformId_customerId_createdAt_idx" ON "Transaction"("platformId", "customerId", "createdAt");
CREATE INDEX "Transaction_platformId_status_idx" ON "Transaction"("platformId", "status");
CREATE INDEX "Transaction_quoteId_idx" ON "Transaction"("quoteId");

CREATE TABLE "Quote" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "customerId" TEXT,
  "status" TEXT NOT NULL CHECK ("status" IN ('PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED')),
  "source" JSONB NOT NULL,
  "sourceAccountId" TEXT,
  "destination" JSONB NOT NULL,
  "destinationAccountId" TEXT,
  "sendingCurrency" TEXT NOT NULL,
  "receivingCurrency" TEXT NOT NULL,
  "lockedSide" TEXT NOT NULL CHECK ("lockedSide" IN ('SENDING', 'RECEIVING')),
  "lockedAmount" BIGINT NOT NULL CHECK ("lockedAmount" > 0),
  "totalSending" BIGINT NOT NULL CHECK ("totalSending" > 0),
  "totalReceiving" BIGINT NOT NULL CHECK ("totalReceiving" > 0),
  "serviceFee" BIGINT NOT NULL CHECK ("serviceFee" >= 0),
  "platformFee" BIGINT NOT NULL CHECK ("platformFee" >= 0),
  "netSending" BIGINT NOT NULL CHECK ("netSending" > 0),
  "rateNum" BIGINT NOT NULL,
  "rateDen" BIGINT NOT NULL,
  "exchangeRate" DOUBLE PRECISION NOT NULL,
  "rateDetails" JSONB NOT NULL,
  "paymentRail" TEXT,
  "railSelectionMode" TEXT,
  "lookupId" TEXT,
  "route" JSONB NOT NULL,
  "description" TEXT,
  "remittanceInformation" TEXT,
  "purposeOfPayment" TEXT,
  "senderCustomerInfo" JSONB,
  "counterpartyInformation" JSONB,
  "payloadToSign" TEXT,
  "scaChallenge" JSONB,
  "transactionId" TEXT NOT NULL UNIQUE REFERENCES "Transaction"("id"),
  "expiresAt" TIMESTAMP(3) NOT NULL,
  "executedAt" TIMESTAMP(3),
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  -- The money sums of a quote hold by construction.
  CONSTRAINT "Quote_sums" CHECK ("totalSending" = "netSending" + "serviceFee" + "platformFee")
);
CREATE INDEX "Quote_platformId_createdAt_idx" ON "Quote"("platformId", "createdAt");
CREATE INDEX "Quote_status_expiresAt_idx" ON "Quote"("status", "expiresAt");
