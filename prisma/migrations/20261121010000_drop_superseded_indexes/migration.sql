-- Indexes superseded by 20261121008000_ledger_deferred_fk, which no query uses any more:
-- the quote expiry sweep reads "Quote_expiry_sweep_idx" (partial, on "expiresAt"), and a
-- platform's events are read in "seq" order through "Event_platformId_seq_idx".
DROP INDEX IF EXISTS "Quote_status_expiresAt_idx";
DROP INDEX IF EXISTS "Event_platformId_createdAt_idx";
