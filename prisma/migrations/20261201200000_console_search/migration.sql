-- The console's search box (lib/search, lib/customers/repository.ts searchBranches): any part of
-- a customer's name or email ("Lovelace", "Imports", "linus."), a card's last four digits and an
-- amount, each through an index rather than a read of every row. Parts of text need trigram
-- indexes: pg_trgm ships with PostgreSQL (contrib) and with PGlite, which loads it when the
-- embedded database starts (scripts/embedded-db.mjs). It is a trusted extension, so the
-- database's owner may create it without superuser rights.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "Customer_searchName_trgm_idx" ON "Customer" USING gin ("searchName" gin_trgm_ops);
CREATE INDEX "Customer_searchEmail_trgm_idx" ON "Customer" USING gin ("searchEmail" gin_trgm_ops);
CREATE INDEX "Card_platformId_last4_idx" ON "Card"("platformId", "last4");
CREATE INDEX "Transaction_platformId_sentAmount_idx" ON "Transaction"("platformId", "sentAmount");
CREATE INDEX "Transaction_platformId_receivedAmount_idx" ON "Transaction"("platformId", "receivedAmount");
ANALYZE "Customer";
