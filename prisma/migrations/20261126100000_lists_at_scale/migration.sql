-- Lists that stay fast at a million rows (docs-draft/lists.md).
--
-- 1. Every list pages newest first by ("createdAt", "id"); its index ends with both columns so the
--    cursor is an index bound and the order needs no sort. A backward scan serves oldest first.
-- 2. Identifiers lists filter on are columns with indexes, not paths inside JSON.
-- 3. Row counts for the unfiltered and per-status lists are kept by triggers in "ListCount",
--    sharded over 16 slots per key so concurrent payments do not queue on one counter row.

-- Transactions.
DROP INDEX IF EXISTS "Transaction_platformId_createdAt_idx";
DROP INDEX IF EXISTS "Transaction_platformId_customerId_createdAt_idx";
DROP INDEX IF EXISTS "Transaction_platformId_status_idx";
CREATE INDEX "Transaction_platformId_createdAt_id_idx" ON "Transaction"("platformId", "createdAt", "id");
CREATE INDEX "Transaction_platformId_customerId_createdAt_id_idx" ON "Transaction"("platformId", "customerId", "createdAt", "id");
CREATE INDEX "Transaction_platformId_status_createdAt_id_idx" ON "Transaction"("platformId", "status", "createdAt", "id");
CREATE INDEX "Transaction_platformId_platformCustomerId_createdAt_id_idx" ON "Transaction"("platformId", "platformCustomerId", "createdAt", "id")
  WHERE "platformCustomerId" IS NOT NULL;
CREATE INDEX "Transaction_platformId_reference_createdAt_id_idx" ON "Transaction"("platformId", "reference", "createdAt", "id")
  WHERE "reference" IS NOT NULL;
-- The sender and receiver as the reference filters them: an account id or a UMA address (a source
-- or destination names one or the other, by its sourceType / destinationType).
ALTER TABLE "Transaction"
  ADD COLUMN "senderIdentifier" TEXT GENERATED ALWAYS AS (COALESCE("source" ->> 'accountId', "source" ->> 'umaAddress')) STORED,
  ADD COLUMN "receiverIdentifier" TEXT GENERATED ALWAYS AS (COALESCE("destination" ->> 'accountId', "destination" ->> 'umaAddress')) STORED;
CREATE INDEX "Transaction_platformId_senderIdentifier_createdAt_id_idx" ON "Transaction"("platformId", "senderIdentifier", "createdAt", "id")
  WHERE "senderIdentifier" IS NOT NULL;
CREATE INDEX "Transaction_platformId_receiverIdentifier_createdAt_id_idx" ON "Transaction"("platformId", "receiverIdentifier", "createdAt", "id")
  WHERE "receiverIdentifier" IS NOT NULL;
CREATE INDEX "Transaction_platformId_internalAccountId_createdAt_id_idx" ON "Transaction"("platformId", "internalAccountId", "createdAt", "id")
  WHERE "internalAccountId" IS NOT NULL;
CREATE INDEX "Transaction_platformId_externalAccountId_createdAt_id_idx" ON "Transaction"("platformId", "externalAccountId", "createdAt", "id")
  WHERE "externalAccountId" IS NOT NULL;

-- Customers: the default list shows active customers only.
DROP INDEX IF EXISTS "Customer_platformId_createdAt_idx";
CREATE INDEX "Customer_platformId_createdAt_id_idx" ON "Customer"("platformId", "createdAt", "id");
CREATE INDEX "Customer_active_platformId_createdAt_id_idx" ON "Customer"("platformId", "createdAt", "id") WHERE "deletedAt" IS NULL;
-- The list's umaAddress filter is case-insensitive (deleted customers included on request); it
-- replaces the case-sensitive index no query used.
DROP INDEX IF EXISTS "Customer_platformId_umaAddress_idx";
CREATE INDEX "Customer_platformId_lower_umaAddress_idx" ON "Customer"("platformId", lower("umaAddress"));

-- The other lists: (scope, createdAt, id).
DROP INDEX IF EXISTS "InternalAccount_platformId_createdAt_idx";
DROP INDEX IF EXISTS "InternalAccount_platformId_customerId_idx";
CREATE INDEX "InternalAccount_platformId_createdAt_id_idx" ON "InternalAccount"("platformId", "createdAt", "id");
CREATE INDEX "InternalAccount_platformId_customerId_createdAt_id_idx" ON "InternalAccount"("platformId", "customerId", "createdAt", "id");
DROP INDEX IF EXISTS "ExternalAccount_platformId_createdAt_idx";
DROP INDEX IF EXISTS "ExternalAccount_platformId_customerId_createdAt_idx";
CREATE INDEX "ExternalAccount_platformId_createdAt_id_idx" ON "ExternalAccount"("platformId", "createdAt", "id") WHERE "deletedAt" IS NULL;
CREATE INDEX "ExternalAccount_platformId_customerId_createdAt_id_idx" ON "ExternalAccount"("platformId", "customerId", "createdAt", "id") WHERE "deletedAt" IS NULL;
DROP INDEX IF EXISTS "Verification_platformId_createdAt_idx";
DROP INDEX IF EXISTS "Verification_platformId_customerId_createdAt_idx";
CREATE INDEX "Verification_platformId_createdAt_id_idx" ON "Verification"("platformId", "createdAt", "id");
CREATE INDEX "Verification_platformId_customerId_createdAt_id_idx" ON "Verification"("platformId", "customerId", "createdAt", "id");
DROP INDEX IF EXISTS "BeneficialOwner_platformId_createdAt_idx";
DROP INDEX IF EXISTS "BeneficialOwner_platformId_customerId_createdAt_idx";
CREATE INDEX "BeneficialOwner_platformId_createdAt_id_idx" ON "BeneficialOwner"("platformId", "createdAt", "id");
CREATE INDEX "BeneficialOwner_platformId_customerId_createdAt_id_idx" ON "BeneficialOwner"("platformId", "customerId", "createdAt", "id");
DROP INDEX IF EXISTS "Document_platformId_createdAt_idx";
DROP INDEX IF EXISTS "Document_platformId_documentHolder_createdAt_idx";
CREATE INDEX "Document_platformId_createdAt_id_idx" ON "Document"("platformId", "createdAt", "id");
CREATE INDEX "Document_platformId_documentHolder_createdAt_id_idx" ON "Document"("platformId", "documentHolder", "createdAt", "id");
DROP INDEX IF EXISTS "ApiToken_platformId_createdAt_idx";
CREATE INDEX "ApiToken_platformId_createdAt_id_idx" ON "ApiToken"("platformId", "createdAt", "id");
DROP INDEX IF EXISTS "StaffUser_platformId_createdAt_idx";
CREATE INDEX "StaffUser_platformId_createdAt_id_idx" ON "StaffUser"("platformId", "createdAt", "id");
DROP INDEX IF EXISTS "StaffAuditEntry_platformId_createdAt_idx";
DROP INDEX IF EXISTS "StaffAuditEntry_platformId_objectId_createdAt_idx";
CREATE INDEX "StaffAuditEntry_platformId_createdAt_id_idx" ON "StaffAuditEntry"("platformId", "createdAt", "id");
CREATE INDEX "StaffAuditEntry_platformId_objectId_createdAt_id_idx" ON "StaffAuditEntry"("platformId", "objectId", "createdAt", "id");

-- The console's webhook log pages by seq, filtered by status or type.
CREATE INDEX "Event_platformId_status_seq_idx" ON "Event"("platformId", "status", "seq");
CREATE INDEX "Event_platformId_type_seq_idx" ON "Event"("platformId", "type", "seq");
-- Retention (lib/jobs/retention.ts): finished jobs by age; settled events by age (BRIN: a few
-- pages for the whole table, next to nothing per insert, as events arrive in time order).
CREATE INDEX "Job_doneAt_idx" ON "Job"("doneAt") WHERE "doneAt" IS NOT NULL;
CREATE INDEX "Event_createdAt_brin" ON "Event" USING brin ("createdAt");

-- Row counts kept with the rows. A key's count is the sum of its slots; a writer adds to a random
-- slot, so concurrent writers rarely wait on one another's row lock.
CREATE TABLE "ListCount" (
  "platformId" TEXT NOT NULL,
  "list" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  "slot" SMALLINT NOT NULL,
  "n" BIGINT NOT NULL,
  PRIMARY KEY ("platformId", "list", "key", "slot")
);

CREATE FUNCTION corridor_list_count(p TEXT, l TEXT, k TEXT, d INTEGER) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "ListCount" ("platformId", "list", "key", "slot", "n")
  VALUES (p, l, k, floor(random() * 16)::smallint, d)
  ON CONFLICT ("platformId", "list", "key", "slot") DO UPDATE SET "n" = "ListCount"."n" + EXCLUDED."n"
$$;

-- Transactions: key '' (all) and 'status:<STATUS>'.
CREATE FUNCTION corridor_count_transaction() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM corridor_list_count(NEW."platformId", 'transactions', '', 1);
    PERFORM corridor_list_count(NEW."platformId", 'transactions', 'status:' || NEW."status", 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM corridor_list_count(OLD."platformId", 'transactions', '', -1);
    PERFORM corridor_list_count(OLD."platformId", 'transactions', 'status:' || OLD."status", -1);
  ELSIF NEW."status" IS DISTINCT FROM OLD."status" THEN
    PERFORM corridor_list_count(OLD."platformId", 'transactions', 'status:' || OLD."status", -1);
    PERFORM corridor_list_count(NEW."platformId", 'transactions', 'status:' || NEW."status", 1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "Transaction_count" AFTER INSERT OR DELETE OR UPDATE OF "status" ON "Transaction"
FOR EACH ROW EXECUTE FUNCTION corridor_count_transaction();

-- Customers: key 'all' and 'active' (not deleted).
CREATE FUNCTION corridor_count_customer() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF TG_OP = 'DELETE' THEN PERFORM corridor_list_count(OLD."platformId", 'customers', 'all', -1); END IF;
    IF OLD."deletedAt" IS NULL THEN PERFORM corridor_list_count(OLD."platformId", 'customers', 'active', -1); END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    IF TG_OP = 'INSERT' THEN PERFORM corridor_list_count(NEW."platformId", 'customers', 'all', 1); END IF;
    IF NEW."deletedAt" IS NULL THEN PERFORM corridor_list_count(NEW."platformId", 'customers', 'active', 1); END IF;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "Customer_count" AFTER INSERT OR DELETE ON "Customer"
FOR EACH ROW EXECUTE FUNCTION corridor_count_customer();
CREATE TRIGGER "Customer_count_deleted" AFTER UPDATE OF "deletedAt" ON "Customer"
FOR EACH ROW WHEN (OLD."deletedAt" IS DISTINCT FROM NEW."deletedAt") EXECUTE FUNCTION corridor_count_customer();

-- Internal accounts: key 'customers' (owned by a customer) and 'platform'.
CREATE FUNCTION corridor_count_internal_account() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM corridor_list_count(NEW."platformId", 'internalAccounts', CASE WHEN NEW."customerId" IS NULL THEN 'platform' ELSE 'customers' END, 1);
  ELSE
    PERFORM corridor_list_count(OLD."platformId", 'internalAccounts', CASE WHEN OLD."customerId" IS NULL THEN 'platform' ELSE 'customers' END, -1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "InternalAccount_count" AFTER INSERT OR DELETE ON "InternalAccount"
FOR EACH ROW EXECUTE FUNCTION corridor_count_internal_account();

-- The counts of the rows already there (slot 0).
INSERT INTO "ListCount" ("platformId", "list", "key", "slot", "n")
SELECT "platformId", 'transactions', '', 0, count(*) FROM "Transaction" GROUP BY 1
UNION ALL
SELECT "platformId", 'transactions', 'status:' || "status", 0, count(*) FROM "Transaction" GROUP BY 1, 3
UNION ALL
SELECT "platformId", 'customers', 'all', 0, count(*) FROM "Customer" GROUP BY 1
UNION ALL
SELECT "platformId", 'customers', 'active', 0, count(*) FROM "Customer" WHERE "deletedAt" IS NULL GROUP BY 1
UNION ALL
SELECT "platformId", 'internalAccounts', CASE WHEN "customerId" IS NULL THEN 'platform' ELSE 'customers' END, 0, count(*)
  FROM "InternalAccount" GROUP BY 1, 3;
