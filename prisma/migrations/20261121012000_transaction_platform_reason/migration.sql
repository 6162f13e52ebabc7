-- The reason a platform gives with POST /transactions/{id}/reject or /cancel used to be written
-- into the transaction's description (the payer's text, shown back in every response). It is the
-- platform's own note: kept beside the transaction, out of the transaction object.
ALTER TABLE "Transaction" ADD COLUMN "platformReason" TEXT;
