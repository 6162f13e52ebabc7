-- Failed authentications, counted per source address and per client id across every server
-- process (lib/auth/throttle.ts), and the refusals they led to. Rows outlive their window by a
-- day at most (lib/jobs/retention.ts).
CREATE TABLE "AuthFailure" (
  "key" TEXT NOT NULL,
  "windowStart" TIMESTAMP(3) NOT NULL,
  "failures" INTEGER NOT NULL,
  "blockedUntil" TIMESTAMP(3),
  CONSTRAINT "AuthFailure_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "AuthFailure_blockedUntil_idx" ON "AuthFailure" ("blockedUntil");
CREATE INDEX "AuthFailure_windowStart_idx" ON "AuthFailure" ("windowStart");
