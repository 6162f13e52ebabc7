-- Staff sign-in limits (lib/staff/sign-in-limits.ts) replace the per-email lock: five failures
-- locked an email for 15 minutes whoever sent them, so anyone could lock out any staff member,
-- and failures were counted after the password check, so a burst of concurrent guesses was
-- checked in full. Now each attempt first claims a slot under every limit that applies (one
-- transaction, rows locked in key order) and is refused unchecked when a limit is spent.
-- The old counts only delayed guessing; dropping them forgets nothing that matters.
DROP TABLE "StaffSignInThrottle";

-- Attempts under one limit: "pair:<email>|<source>", "address:<source>" or "account:<email>".
CREATE TABLE "StaffSignInLimit" (
  "key" TEXT NOT NULL PRIMARY KEY,
  "attempts" INTEGER NOT NULL,
  "lastAttemptAt" TIMESTAMP(3) NOT NULL
);
-- Housekeeping removes limits quiet for a day (they count from zero again anyway).
CREATE INDEX "StaffSignInLimit_lastAttemptAt_idx" ON "StaffSignInLimit" ("lastAttemptAt");

-- Sources (an address, an IPv6 /64) a staff member signed in from: attempts from them do not
-- count against the account's limit for strangers, so a guesser elsewhere cannot lock the owner out.
CREATE TABLE "StaffSignInSource" (
  "staffUserId" TEXT NOT NULL,
  "source" TEXT NOT NULL,
  "lastSignedInAt" TIMESTAMP(3) NOT NULL,
  PRIMARY KEY ("staffUserId", "source")
);
CREATE INDEX "StaffSignInSource_lastSignedInAt_idx" ON "StaffSignInSource" ("lastSignedInAt");
