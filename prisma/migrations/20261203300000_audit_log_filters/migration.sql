-- The console's audit log gains filters (issue 26, point 8): by staff email (as recorded at the
-- time) and by action, each with a date range. Like every list (20261126100000_lists_at_scale),
-- each filter has an index ending in the list's order, so a page costs the same at any size.
CREATE INDEX "StaffAuditEntry_platformId_staffEmail_createdAt_id_idx" ON "StaffAuditEntry"("platformId", "staffEmail", "createdAt", "id");
CREATE INDEX "StaffAuditEntry_platformId_action_createdAt_id_idx" ON "StaffAuditEntry"("platformId", "action", "createdAt", "id");
