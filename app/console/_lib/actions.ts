'use server';
import { AuthError } from 'next-auth';
import { fieldError } from '@/lib/core/errors';
import * as ops from '@/lib/staff/operations';
import * as staff from '@/lib/staff/service';
import { actionAs } from './session';
import { sessionIdOfRequest, signIn, signOut } from './auth';

// The console's server actions: each checks the session and role on the server (actionAs) and
// calls lib/staff/operations, which runs the service as the staff actor and records the audit
// entry. proxy.ts refuses an action request whose Origin is not this site (or is missing), and
// whose body is oversized or malformed, before Next.js decodes it (lib/http/server-action-guard.ts);
// the session cookie is SameSite=Strict besides.
const text = (v: unknown, max = 2048) => (typeof v === 'string' && v.length <= max ? v : '');

export async function signInAction(_prev: { error?: string } | undefined, form: FormData) {
  // Called by the sign-in form with its FormData; a request crafted with other arguments gets
  // the answer of a wrong password rather than a server error.
  const field = (name: string, max: number) => (form instanceof FormData ? text(form.get(name), max) : '');
  try {
    await signIn('credentials', {
      email: field('email', 254),
      password: field('password', 200),
      redirectTo: '/console',
    });
  } catch (err) {
    if (err instanceof AuthError) {
      const { code, retryAfterSeconds } = err as AuthError & { code?: string; retryAfterSeconds?: number };
      return {
        error:
          code === 'throttled'
            ? `Too many sign-in attempts. Try again in ${retryAfterSeconds ?? 1} s.`
            : 'Wrong email or password.',
      };
    }
    throw err; // the redirect to the console after a successful sign-in
  }
  return {};
}

export async function signOutAction() {
  // The session row is revoked first, so the cookie is dead even if the browser kept a copy.
  const sid = await sessionIdOfRequest();
  if (sid) await staff.signOut(sid);
  await signOut({ redirectTo: '/console/sign-in' });
}

export async function decideReviewAction(verificationId: string, decision: string) {
  return actionAs('operator', async (actor) => {
    if (decision !== 'APPROVED' && decision !== 'REJECTED')
      throw fieldError('decision', 'decision must be APPROVED or REJECTED', { enum: ['APPROVED', 'REJECTED'] });
    const v = await ops.decideReview(actor, text(verificationId, 100), decision);
    return { verificationStatus: v.verificationStatus };
  });
}

export async function replayWebhookAction(eventId: string) {
  return actionAs('operator', async (actor) => {
    const d = await ops.replayWebhook(actor, text(eventId, 100));
    return { status: d.status, responseStatus: d.lastAttempt?.responseStatus ?? null };
  });
}

export async function advanceClockAction(seconds: number) {
  return actionAs('operator', async (actor) => {
    const r = await ops.advanceSandboxClock(actor, Number(seconds));
    return { now: r.now, jobsRun: r.jobsRun, webhooksDelivered: r.webhooksDelivered };
  });
}

export async function createTokenAction(name: string, permissions: string[]) {
  return actionAs('admin', async (actor) => {
    const t = await ops.createToken(actor, {
      name: text(name, 255),
      permissions: Array.isArray(permissions) ? permissions.map((p) => text(p, 20)) : [],
    });
    return { id: t.id, clientId: t.clientId, clientSecret: t.clientSecret ?? '' };
  });
}

export async function revokeTokenAction(tokenId: string) {
  return actionAs('admin', async (actor) => {
    await ops.revokeToken(actor, text(tokenId, 100));
    return undefined;
  });
}

export async function setWebhookEndpointAction(url: string) {
  return actionAs('admin', async (actor) => {
    await ops.changeConfig(actor, { webhookEndpoint: text(url) || null });
    return undefined;
  });
}

export async function addStaffAction(email: string, role: string) {
  return actionAs('admin', async (actor) => {
    const r = await staff.addUser(actor, { email: text(email, 254), role: text(role, 20) });
    return { email: r.user.email, password: r.password ?? '' };
  });
}

export async function setStaffRoleAction(userId: string, role: string) {
  return actionAs('admin', async (actor) => {
    await staff.setRole(actor, text(userId, 100), text(role, 20));
    return undefined;
  });
}

export async function setStaffDisabledAction(userId: string, disabled: boolean) {
  return actionAs('admin', async (actor) => {
    await staff.setDisabled(actor, text(userId, 100), disabled === true);
    return undefined;
  });
}

export async function setCardStateAction(cardId: string, state: string) {
  return actionAs('operator', async (actor) => {
    if (state !== 'ACTIVE' && state !== 'FROZEN' && state !== 'CLOSED')
      throw fieldError('state', 'state must be ACTIVE, FROZEN or CLOSED', { enum: ['ACTIVE', 'FROZEN', 'CLOSED'] });
    const card = await ops.setCardState(actor, text(cardId, 100), state);
    return { state: card.state };
  });
}

export async function approveAgentActionAction(actionId: string) {
  return actionAs('operator', async (actor) => {
    const a = await ops.approveAgentAction(actor, text(actionId, 100));
    return { id: a.id, status: a.status, failureReason: a.failureReason ?? null };
  });
}

export async function rejectAgentActionAction(actionId: string, reason: string) {
  return actionAs('operator', async (actor) => {
    const a = await ops.rejectAgentAction(actor, text(actionId, 100), text(reason, 1000));
    return { id: a.id, status: a.status };
  });
}

export async function setAgentPausedAction(agentId: string, isPaused: boolean) {
  return actionAs('operator', async (actor) => {
    const a = await ops.setAgentPaused(actor, text(agentId, 100), isPaused === true);
    return { isPaused: a.isPaused };
  });
}

/**
 * The policy form's fields, as typed (amounts in the smallest unit of the policy's currency); the
 * form sends only those it changed, so the audit entry says what was changed.
 */
export type PolicyForm = Partial<
  Record<
    'defaultExecutionMode' | 'perTransactionLimit' | 'dailyLimit' | 'monthlyLimit' | 'dailyTransactionLimit',
    string
  >
>;

// A whole number becomes one; anything else goes to the API's validation as typed, which refuses
// it on its field. A daily or monthly limit sent empty is "no limit".
const whole = (v: string) => {
  const s = v.trim();
  return /^-?\d{1,20}$/.test(s) ? BigInt(s) : s;
};

function policyChange(form: PolicyForm): Record<string, unknown> {
  const f = (typeof form === 'object' && form ? form : {}) as PolicyForm;
  const sent = (k: keyof PolicyForm) => (typeof f[k] === 'string' && f[k].length <= 40 ? f[k] : undefined);
  const limits: Record<string, unknown> = {};
  const per = sent('perTransactionLimit');
  if (per !== undefined) limits.perTransactionLimit = whole(per);
  for (const k of ['dailyLimit', 'monthlyLimit'] as const) {
    const v = sent(k);
    if (v !== undefined) limits[k] = v.trim() ? whole(v) : null;
  }
  const count = sent('dailyTransactionLimit');
  if (count !== undefined) {
    const n = whole(count);
    limits.dailyTransactionLimit = typeof n === 'bigint' ? Number(n) : n;
  }
  const mode = sent('defaultExecutionMode');
  return {
    ...(mode !== undefined ? { defaultExecutionMode: mode } : {}),
    ...(Object.keys(limits).length ? { spendingLimits: limits } : {}),
  };
}

export async function changeAgentPolicyAction(agentId: string, form: PolicyForm) {
  return actionAs('admin', async (actor) => {
    const a = await ops.changeAgentPolicy(actor, text(agentId, 100), policyChange(form));
    return { updatedAt: new Date(a.updatedAt).toISOString() };
  });
}

export async function regenerateDeviceCodeAction(agentId: string) {
  return actionAs('operator', async (actor) => {
    const c = await ops.regenerateDeviceCode(actor, text(agentId, 100));
    return { code: c.code, expiresAt: c.expiresAt.toISOString() };
  });
}
