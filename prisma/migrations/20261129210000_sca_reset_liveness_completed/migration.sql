-- Sandbox: when the end user completed the liveness check of a factor reset on the sandbox
-- liveness page its verificationLink opens (app/sandbox/liveness); the simulated check then
-- reports its outcome at once instead of after its timed steps (lib/sca/liveness.ts).
ALTER TABLE "ScaReset" ADD COLUMN "livenessCompletedAt" TIMESTAMP(3);
