-- A sandbox clock that only moves when advanced (lib/core/clock.ts): when set, the wall instant the
-- platform's clock stopped at; its time is then this plus clockOffsetMs, whatever the wall clock
-- does. Tests freeze their platform's clock so that a delay's boundary (a payout still PROCESSING
-- at 359 s, COMPLETED at 360 s) never races the time the test itself takes.
ALTER TABLE "Platform" ADD COLUMN "clockFrozenAt" TIMESTAMP(3);
