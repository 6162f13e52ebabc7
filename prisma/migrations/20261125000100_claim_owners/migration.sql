-- Claims name their owner's server process (its instance key, held as a session advisory lock
-- while the process lives: lib/core/instance.ts), so that a claim whose owner died is recognised
-- through the database at once instead of after a fixed wait.
ALTER TABLE "IdempotencyRecord" ADD COLUMN "owner" TEXT;
ALTER TABLE "IdempotencyRecord" ADD COLUMN "ownerInstance" INTEGER;
-- PENDING records written before this change have no owner: whether their effect committed is
-- unknown (their answer was stored after the effect, not with it), so they keep answering
-- "in progress" until they expire rather than risk running a payment twice.

ALTER TABLE "Job" ADD COLUMN "lockedBy" INTEGER;
