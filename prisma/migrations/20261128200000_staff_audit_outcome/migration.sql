-- A staff action's audit entry is written before the action runs (outcome STARTED) and marked
-- DONE after it (lib/staff/operations.ts). The action's own write and the entry cannot share one
-- database transaction (an approval runs the payments engine's own statements), so the entry comes
-- first: a process that dies between the action's commit and the DONE mark leaves an entry that
-- says the action was started and its outcome was not seen, never an action without an entry.
ALTER TABLE "StaffAuditEntry" ADD COLUMN "outcome" TEXT NOT NULL DEFAULT 'DONE'
  CHECK ("outcome" IN ('STARTED', 'DONE'));
