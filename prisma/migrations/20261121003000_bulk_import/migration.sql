CREATE TABLE "BulkCustomerImport" (
  "id" TEXT PRIMARY KEY,
  "platformId" TEXT NOT NULL REFERENCES "Platform"("id"),
  "status" TEXT NOT NULL CHECK ("status" IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED')),
  "fileName" TEXT,
  "total" INTEGER NOT NULL CHECK ("total" >= 0),
  "processed" INTEGER NOT NULL DEFAULT 0,
  "successful" INTEGER NOT NULL DEFAULT 0,
  "failed" INTEGER NOT NULL DEFAULT 0,
  "leaseOwner" TEXT,
  "leaseUntil" TIMESTAMP(3),
  "failure" TEXT,
  "createdAt" TIMESTAMP(3) NOT NULL,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  "completedAt" TIMESTAMP(3),
  -- The counters always add up: every processed row either succeeded or failed.
  CHECK ("processed" = "successful" + "failed" AND "processed" <= "total")
);
CREATE INDEX "BulkCustomerImport_platformId_createdAt_idx" ON "BulkCustomerImport"("platformId", "createdAt");

CREATE TABLE "BulkCustomerImportRow" (
  "importId" TEXT NOT NULL REFERENCES "BulkCustomerImport"("id"),
  "rowNumber" INTEGER NOT NULL,
  "platformCustomerId" TEXT,
  "data" JSONB NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'PENDING' CHECK ("status" IN ('PENDING', 'CREATING', 'CREATED', 'FAILED')),
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "priorCustomerId" TEXT,
  "customerId" TEXT,
  "error" JSONB,
  "updatedAt" TIMESTAMP(3) NOT NULL,
  PRIMARY KEY ("importId", "rowNumber"),
  CHECK (("status" = 'CREATED') = ("customerId" IS NOT NULL)),
  CHECK (("status" = 'FAILED') = ("error" IS NOT NULL))
);
-- The job's "next rows to do" scan stays small however large the file was.
CREATE INDEX "BulkCustomerImportRow_unsettled_idx" ON "BulkCustomerImportRow"("importId", "rowNumber") WHERE "status" IN ('PENDING', 'CREATING');
