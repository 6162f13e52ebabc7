-- A posting writes its entries first and moves the balances last, so the row locks on busy
-- accounts are held for the shortest time. Entries may name a system account that the same
-- posting creates on first use, so their account reference is checked at commit.
ALTER TABLE "LedgerEntry" ALTER CONSTRAINT "LedgerEntry_ledgerAccountId_fkey" DEFERRABLE INITIALLY DEFERRED;
-- Quotes expire by a sweep over this index rather than one timer job per quote.
CREATE INDEX "Quote_expiry_sweep_idx" ON "Quote"("expiresAt") WHERE "status" IN ('PENDING', 'PENDING_AUTHORIZATION');
-- Events of one change are recorded within the same millisecond: a sequence keeps their order.
ALTER TABLE "Event" ADD COLUMN "seq" BIGSERIAL;
CREATE INDEX "Event_platformId_seq_idx" ON "Event"("platformId", "seq");
