-- An event of a platform without a webhook endpoint is SKIPPED as it is written (lib/webhooks/
-- service.ts: such events are kept, never sent, and setting an endpoint later starts delivery from
-- then on). The delivery worker used to find them PENDING and mark them SKIPPED in a second write:
-- a new version of every event row (payload included) with its index entries and dead tuple, the
-- largest write a payment step caused after its own. The worker's sweep stays for events left
-- waiting when an endpoint is removed.
CREATE FUNCTION corridor_event_skip_without_endpoint() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'PENDING'
     AND NOT EXISTS (SELECT 1 FROM "Platform" p WHERE p."id" = NEW."platformId" AND p."webhookEndpoint" IS NOT NULL) THEN
    NEW."status" := 'SKIPPED';
    NEW."nextAttemptAt" := NULL;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "Event_skip_without_endpoint" BEFORE INSERT ON "Event"
FOR EACH ROW EXECUTE FUNCTION corridor_event_skip_without_endpoint();
