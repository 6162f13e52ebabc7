CREATE TABLE "WebhookSigningKey" (
  "platformId" TEXT PRIMARY KEY REFERENCES "Platform"("id"),
  "publicKeyPem" TEXT NOT NULL,
  "encryptedPrivateKey" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL
);

CREATE TABLE "WebhookAttempt" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "eventId" TEXT NOT NULL REFERENCES "Event"("id"),
  "attempt" INTEGER NOT NULL CHECK ("attempt" >= 1),
  "url" TEXT NOT NULL,
  "startedAt" TIMESTAMP(3) NOT NULL,
  "responseStatus" INTEGER,
  "error" TEXT,
  "latencyMs" INTEGER NOT NULL,
  "responseExcerpt" TEXT,
  "succeeded" BOOLEAN NOT NULL
);
CREATE UNIQUE INDEX "WebhookAttempt_eventId_attempt_key" ON "WebhookAttempt"("eventId", "attempt");
CREATE INDEX "WebhookAttempt_platformId_startedAt_idx" ON "WebhookAttempt"("platformId", "startedAt");

-- Delivery states of an outbox event (lib/webhooks/service.ts):
--   PENDING   waiting for its first or next attempt (nextAttemptAt; NULL = due at once)
--   DELIVERED the endpoint acknowledged it
--   FAILED    the 7-day retry window ran out, or a sandbox test send failed
--   SKIPPED   it came due while the platform had no webhook endpoint
ALTER TABLE "Event" ADD CONSTRAINT "Event_status_check" CHECK ("status" IN ('PENDING', 'DELIVERED', 'FAILED', 'SKIPPED'));
