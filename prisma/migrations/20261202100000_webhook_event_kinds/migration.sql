-- Webhook event kinds chosen in the console (issue 26, point 8): the platform's endpoint receives
-- only the kinds listed in its WebhookSettings row (no row: every kind). TEST is always sent.
CREATE TABLE "WebhookSettings" (
  "platformId" TEXT PRIMARY KEY REFERENCES "Platform"("id"),
  "eventTypes" TEXT[] NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL
);

-- Why a SKIPPED event was not sent, for the console: NO_ENDPOINT or KIND_NOT_CHOSEN.
ALTER TABLE "Event" ADD COLUMN "skipReason" TEXT;
ALTER TABLE "Event" ADD CONSTRAINT "Event_skipReason_check"
  CHECK ("skipReason" IS NULL OR "skipReason" IN ('NO_ENDPOINT', 'KIND_NOT_CHOSEN'));

-- Who replayed the event from the console (null: the worker's first try or a retry).
ALTER TABLE "WebhookAttempt" ADD COLUMN "replayedBy" TEXT;

-- The insert trigger of 20261121011000_event_skip_at_insert, now also skipping kinds the endpoint
-- does not receive. Still one indexed lookup per event (the settings row joined to the platform
-- row it already read), so a payment step pays no extra query; an event that will never be sent
-- is written SKIPPED at once rather than rewritten by the worker later.
CREATE OR REPLACE FUNCTION corridor_event_skip_without_endpoint() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  endpoint TEXT;
  kinds TEXT[];
BEGIN
  IF NEW."status" = 'PENDING' THEN
    SELECT p."webhookEndpoint", s."eventTypes" INTO endpoint, kinds
    FROM "Platform" p LEFT JOIN "WebhookSettings" s ON s."platformId" = p."id"
    WHERE p."id" = NEW."platformId";
    IF endpoint IS NULL THEN
      NEW."status" := 'SKIPPED';
      NEW."nextAttemptAt" := NULL;
      NEW."skipReason" := 'NO_ENDPOINT';
    ELSIF kinds IS NOT NULL AND NEW."type" <> 'TEST' AND NOT (NEW."type" = ANY (kinds)) THEN
      NEW."status" := 'SKIPPED';
      NEW."nextAttemptAt" := NULL;
      NEW."skipReason" := 'KIND_NOT_CHOSEN';
    END IF;
  END IF;
  RETURN NEW;
END $$;
