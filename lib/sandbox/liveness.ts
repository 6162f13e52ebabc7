import { clockOf, now } from '../core/clock';
import { runAs } from '../core/context';
import { isSandbox } from '../core/mode';
import * as platforms from '../platform/repository';
import { completeSandboxLiveness, livenessOfReset, platformOfReset } from '../sca/reset';
import { completeLiveness, livenessChallenge } from '../external-accounts/ownership';
import { SANDBOX_LIVENESS_PASSES } from '../external-accounts/rails';
import { db } from '@/lib/core/db';

// The sandbox liveness page (app/sandbox/liveness/[id]): every verificationLink the sandbox hands
// out opens it, a factor reset's (TwoFactorReset:...) or a wallet ownership check's
// (Challenge:...). Where a real vendor would film the end user, the sandbox offers one button that
// completes the check, through the same domain functions its timed simulation uses, on the
// platform's clock. Outside the sandbox there is no such page.
export interface LivenessView {
  id: string;
  /** What the check is for, in words. */
  subject: string;
  /** The check's standing as the API shows it (the reset's status; the challenge's state). */
  status: string;
  /** Whether the end user can still complete it here. */
  open: boolean;
}

type Target = { kind: 'reset' | 'ownership'; platformId: string };

async function locate(id: string): Promise<Target | null> {
  if (id.startsWith('TwoFactorReset:')) {
    const platformId = await platformOfReset(id);
    return platformId ? { kind: 'reset', platformId } : null;
  }
  if (id.startsWith('Challenge:')) {
    const challenge = await livenessChallenge(id);
    return challenge ? { kind: 'ownership', platformId: challenge.platformId } : null;
  }
  return null;
}

/** Runs `fn` as the system on the clock of the platform that owns check `id`; null when there is none. */
async function onItsPlatform(id: string, fn: (target: Target) => Promise<LivenessView | null>) {
  if (!isSandbox()) return null;
  const target = await locate(id);
  const platform = target && (await platforms.findById(target.platformId, db()));
  if (!target || !platform) return null;
  return runAs({ kind: 'system', platformId: platform.id, ...clockOf(platform) }, () => fn(target));
}

async function view(id: string, target: Target): Promise<LivenessView | null> {
  if (target.kind === 'reset') {
    const reset = await livenessOfReset(id);
    if (!reset) return null;
    return {
      id,
      subject: `Liveness check to reset the customer's ${reset.factor} factor`,
      status: reset.status,
      open: !reset.completed && (reset.status === 'INITIATED' || reset.status === 'PENDING_REVIEW'),
    };
  }
  const challenge = await livenessChallenge(id);
  if (!challenge) return null;
  const expired = challenge.state === 'PENDING' && challenge.expiresAt <= now();
  return {
    id,
    subject: `Liveness check proving who controls the wallet of external account ${challenge.externalAccountId}`,
    status: expired ? 'EXPIRED' : challenge.state,
    open: challenge.state === 'PENDING' && !expired,
  };
}

/** Check `id` as the page shows it; null when there is no such check (or this is not the sandbox). */
export function findLiveness(id: string): Promise<LivenessView | null> {
  return onItsPlatform(id, (target) => view(id, target));
}

/** The end user completes check `id` on the page; answers the check as it now stands. */
export function completeLivenessOnPage(id: string): Promise<LivenessView | null> {
  return onItsPlatform(id, async (target) => {
    const before = await view(id, target);
    if (!before?.open) return before;
    if (target.kind === 'reset') await completeSandboxLiveness(id);
    else await completeLiveness(target.platformId, id, SANDBOX_LIVENESS_PASSES);
    return view(id, target);
  });
}
