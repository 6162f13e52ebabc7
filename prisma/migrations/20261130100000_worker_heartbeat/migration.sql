-- Worker heartbeats (lib/ops/heartbeat.ts): each server process whose worker runs writes when it
-- last ticked; GET /api/ready reads the newest, so a fleet whose workers all stopped is not ready
-- even when every web process answers.
CREATE TABLE "WorkerHeartbeat" (
  "instanceKey" INTEGER NOT NULL PRIMARY KEY,
  "host" TEXT NOT NULL,
  "pid" INTEGER NOT NULL,
  "beatAt" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "WorkerHeartbeat_beatAt_idx" ON "WorkerHeartbeat" ("beatAt");
