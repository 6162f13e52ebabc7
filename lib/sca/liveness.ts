import { randomBytes } from 'node:crypto';
import { port, type AdapterStatus } from '../core/ports';
import { publicBaseUrl } from '../core/mode';

// The liveness check that gates a factor reset: a hosted biometric flow the end user completes
// with the handles the start call returns, whose progress the reset polls. A port: the sandbox
// simulation below, or a real identity-verification vendor plugged in by lib/wiring.ts.
export type LivenessState = 'INITIATED' | 'PENDING_REVIEW' | 'PASSED' | 'REJECTED';

export interface LivenessSession {
  ref: string;
  accessToken: string | null;
  verificationLink: string | null;
  /** Sandbox only: the outcome the simulation will reach. */
  sandboxOutcome?: SandboxOutcome;
}

export interface LivenessCheck {
  /** Opens a liveness session for a reset; null when no provider is connected. */
  start(req: { resetId: string; customer: { id: string; email: string | null } }): Promise<LivenessSession | null>;
  /**
   * Where the session stands at `at`. `completedAt`: sandbox only, when the end user completed the
   * check on the sandbox liveness page its verificationLink opens.
   */
  state(
    session: { ref: string; startedAt: Date; sandboxOutcome: string | null; completedAt?: Date | null },
    at: Date,
  ): Promise<LivenessState>;
  describe(): AdapterStatus;
}

export const livenessCheck = port<LivenessCheck>('sca.liveness-check');

// The sandbox: the end user "submits" after 10 s and the review ends 10 s later on the platform's
// sandbox clock, with the outcome chosen by a magic value in the customer's email (README):
// `liveness-rejected` in it -> REJECTED; `liveness-pending` -> stays in review until the reset
// window closes; anything else passes. Completing the check on the sandbox liveness page (the
// verificationLink) reaches that outcome at once.
export type SandboxOutcome = 'PASSED' | 'REJECTED' | 'PENDING';
export const SANDBOX_SUBMIT_SECONDS = 10;
export const SANDBOX_REVIEW_SECONDS = 10;

export function sandboxOutcomeFor(email: string | null): SandboxOutcome {
  const e = (email ?? '').toLowerCase();
  if (e.includes('liveness-rejected')) return 'REJECTED';
  if (e.includes('liveness-pending')) return 'PENDING';
  return 'PASSED';
}

export const sandboxLiveness: LivenessCheck = {
  async start({ resetId, customer }) {
    return {
      ref: `sandbox-liveness-${randomBytes(8).toString('hex')}`,
      accessToken: `sandbox_liveness_${randomBytes(16).toString('hex')}`,
      verificationLink: `${publicBaseUrl()}/sandbox/liveness/${encodeURIComponent(resetId)}`,
      sandboxOutcome: sandboxOutcomeFor(customer.email),
    };
  },
  async state({ startedAt, sandboxOutcome, completedAt }, at) {
    if (completedAt && completedAt <= at)
      return sandboxOutcome === 'REJECTED' ? 'REJECTED' : sandboxOutcome === 'PENDING' ? 'PENDING_REVIEW' : 'PASSED';
    const elapsed = (at.getTime() - startedAt.getTime()) / 1000;
    if (elapsed < SANDBOX_SUBMIT_SECONDS) return 'INITIATED';
    if (elapsed < SANDBOX_SUBMIT_SECONDS + SANDBOX_REVIEW_SECONDS || sandboxOutcome === 'PENDING')
      return 'PENDING_REVIEW';
    return sandboxOutcome === 'REJECTED' ? 'REJECTED' : 'PASSED';
  },
  describe: () => ({
    party: 'liveness (factor resets)',
    adapter: 'sandbox',
    connected: false,
    detail: 'simulated checks: the outcome from liveness-rejected / liveness-pending in the email (README)',
  }),
};

/** Outside the sandbox with no vendor connected: resets are not available. */
export const unconnectedLiveness: LivenessCheck = {
  async start() {
    return null;
  },
  async state() {
    return 'PENDING_REVIEW';
  },
  describe: () => ({
    party: 'liveness (factor resets)',
    adapter: 'none',
    connected: false,
    detail:
      'no liveness vendor connected: factor resets are refused with 503 SERVICE_UNAVAILABLE; ' +
      `no vendor adapter ships yet (${'docs/operations.md#providers-what-is-real-and-what-to-connect'})`,
  }),
};
