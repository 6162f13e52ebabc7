'use server';
import { AuthError } from 'next-auth';
import { redirect } from 'next/navigation';
import { DomainError } from '@/lib/core/errors';
import * as invitations from '@/lib/staff/invitations';
import * as staff from '@/lib/staff/service';
import * as cmd from '@/lib/staff/commands';
import * as refundCmd from '@/lib/staff/refund-operations';
import type { DeliveryAttempt } from '@/lib/webhooks/log';
import { command, keyedCommand } from './command';
import { sessionIdOfRequest, signIn, signOut } from './auth';

// The console's server actions: each runs a command (lib/staff/commands.ts) as the signed-in staff
// member (./command.ts): the runner checks the role and validates the arguments with the command's
// schema, and the domain call records the audit entry. proxy.ts refuses an action request whose
// Origin is not this site (or is missing), and whose body is oversized or malformed, before
// Next.js decodes it (lib/http/server-action-guard.ts); the session cookie is SameSite=Strict besides.
const text = (v: unknown, max: number) => (typeof v === 'string' && v.length <= max ? v : '');

type SignInState = { error?: string; challenge?: string };

export async function signInAction(_prev: SignInState | undefined, form: FormData): Promise<SignInState> {
  // Called by the sign-in form with its FormData; a request crafted with other arguments gets
  // the answer of a wrong password rather than a server error. The second step sends the
  // challenge the first one returned with the code.
  const field = (name: string, max: number) => (form instanceof FormData ? text(form.get(name), max) : '');
  const challenge = field('challenge', 100);
  try {
    await signIn('credentials', {
      ...(challenge
        ? { challenge, code: field('code', 40) }
        : { email: field('email', 254), password: field('password', 200) }),
      redirectTo: '/console',
    });
  } catch (err) {
    if (err instanceof AuthError) {
      const failed = err as AuthError & { code?: string; retryAfterSeconds?: number; challengeId?: string };
      if (failed.code === 'second_factor') return { challenge: failed.challengeId };
      if (failed.code === 'throttled')
        return { challenge, error: `Too many sign-in attempts. Try again in ${failed.retryAfterSeconds ?? 1} s.` };
      if (failed.code === 'wrong_code') return { challenge, error: 'Wrong or already used code.' };
      return { error: 'Wrong email or password.' };
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

/** A KYC/KYB review decision with its reason code and note (both on the customer's timeline). */
export async function decideReviewAction(verificationId: string, decision: string, reasonCode: string, note: string) {
  return command(cmd.decideReview, { verificationId, decision, reasonCode, note }, (v) => ({
    verificationStatus: v.verificationStatus,
  }));
}

/** A replay: the event's state after it and the replay's own attempt (never an earlier one's). */
export async function replayWebhookAction(eventId: string) {
  return command(cmd.replayWebhook, { eventId }, (d) => ({
    status: d.status,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    attempt: attemptView(d.replayAttempt),
  }));
}

export async function sendTestWebhookAction() {
  return command(cmd.sendTestWebhook, {}, (r) => ({
    eventId: r.eventId,
    delivered: r.delivered,
    attempt: attemptView(r.attempt),
  }));
}

export async function chooseWebhookKindsAction(eventTypes: string[]) {
  return command(cmd.chooseWebhookKinds, { eventTypes }, (r) => r);
}

export async function advanceClockAction(seconds: number) {
  return command(cmd.advanceClock, { seconds }, (r) => ({
    now: r.now,
    jobsRun: r.jobsRun,
    webhooksDelivered: r.webhooksDelivered,
  }));
}

export async function createTokenAction(name: string, permissions: string[]) {
  return command(cmd.createToken, { name, permissions }, (t) => ({
    id: t.id,
    clientId: t.clientId,
    clientSecret: t.clientSecret ?? '',
  }));
}

export async function revokeTokenAction(tokenId: string) {
  return command(cmd.revokeToken, { tokenId }, () => undefined);
}

export async function setWebhookEndpointAction(url: string) {
  return command(cmd.setWebhookEndpoint, { webhookEndpoint: url }, () => undefined);
}

/** The invitation's one-time link path (the token is shown this once; only its hash is kept). */
export async function inviteStaffAction(email: string, role: string) {
  return command(cmd.inviteStaff, { email, role }, (r) => ({
    email: r.invitation.email,
    path: `/console/invite/${r.token}`,
    expiresAt: r.invitation.expiresAt.toISOString(),
  }));
}

export async function revokeInvitationAction(invitationId: string) {
  return command(cmd.revokeInvitation, { invitationId }, () => undefined);
}

type AcceptState = { error?: string; fields?: Record<string, string> };

/** The invitation page's form: the new member's own password; on success, on to sign in. */
export async function acceptInvitationAction(_prev: AcceptState | undefined, form: FormData): Promise<AcceptState> {
  const token = form instanceof FormData ? text(form.get('token'), 100) : '';
  const password = form instanceof FormData ? text(form.get('password'), 200) : '';
  const confirm = form instanceof FormData ? text(form.get('confirm'), 200) : '';
  if (password !== confirm) return { error: 'The two passwords differ.' };
  try {
    await invitations.accept(token, password);
  } catch (err) {
    if (err instanceof DomainError) return { error: err.message };
    throw err;
  }
  redirect('/console/sign-in?invited=1');
}

export async function setStaffRoleAction(userId: string, role: string) {
  return command(cmd.setStaffRole, { userId, role }, () => undefined);
}

export async function setStaffDisabledAction(userId: string, disabled: boolean) {
  return command(cmd.setStaffDisabled, { userId, disabled }, () => undefined);
}

export async function startSecondFactorAction() {
  return command(cmd.startSecondFactor, {}, (r) => r);
}

export async function confirmSecondFactorAction(code: string) {
  return command(cmd.confirmSecondFactor, { code }, (r) => r);
}

export async function disableSecondFactorAction(code: string) {
  return command(cmd.disableSecondFactor, { code }, () => undefined);
}

export async function regenerateRecoveryCodesAction(code: string) {
  return command(cmd.regenerateRecoveryCodes, { code }, (r) => r);
}

export async function changePasswordAction(input: { currentPassword: string; code: string; newPassword: string }) {
  return command(cmd.changePassword, input, () => undefined);
}

/** Ends every session of the account; this browser's cookie is cleared and goes to sign-in. */
export async function signOutEverywhereAction() {
  const result = await command(cmd.signOutEverywhere, {}, () => undefined);
  if (!result.ok) return result;
  await signOut({ redirectTo: '/console/sign-in' });
  return result;
}

export async function resetSecondFactorAction(userId: string) {
  return command(cmd.resetSecondFactor, { userId }, () => undefined);
}

export async function setCardStateAction(cardId: string, state: string) {
  return command(cmd.setCardState, { cardId, state }, (card) => ({ state: card.state }));
}

/** `key`: one per click, so a repeated request approves (and pays) once and answers alike. */
export async function approveAgentActionAction(actionId: string, key?: string) {
  return keyedCommand(cmd.approveAgentAction, { actionId }, key, (a) => ({
    id: a.id,
    status: a.status,
    failureReason: a.failureReason ?? null,
  }));
}

export async function rejectAgentActionAction(actionId: string, reason: string) {
  return command(cmd.rejectAgentAction, { actionId, reason }, (a) => ({ id: a.id, status: a.status }));
}

export async function setAgentPausedAction(agentId: string, isPaused: boolean) {
  return command(cmd.setAgentPaused, { agentId, isPaused }, (a) => ({ isPaused: a.isPaused }));
}

/**
 * The policy form's fields, as typed (amounts in the smallest unit of the policy's currency); the
 * form sends only those it changed, so the audit entry says what was changed.
 */
export type PolicyForm = cmd.PolicyForm;

export async function changeAgentPolicyAction(agentId: string, form: PolicyForm) {
  return command(cmd.changeAgentPolicy, { agentId, form }, (a) => ({
    updatedAt: new Date(a.updatedAt).toISOString(),
  }));
}

export async function regenerateDeviceCodeAction(agentId: string) {
  return command(cmd.regenerateDeviceCode, { agentId }, (c) => ({
    code: c.code,
    expiresAt: c.expiresAt.toISOString(),
  }));
}

/**
 * Staff actions on a refund over the rail that did not go through, and on a payment held with a
 * sandbox script production does not apply (HAND_TO_RAIL) (lib/staff/refund-operations.ts).
 * `attempt`: the refund attempt the page showed (a stale page is refused); `key`: one per confirmed
 * click, so a repeated request applies once and answers alike.
 */
export async function refundActionAction(
  action: 'RESEND' | 'RECORD_OUTSIDE' | 'CLOSE_REVERSED' | 'RECORD_PAYER_OWES' | 'TAKE_BACK' | 'HAND_TO_RAIL',
  transactionId: string,
  attempt: number,
  key: string,
  reason = '',
) {
  const view = (r: { railStatus: string; reference: string }) => ({ railStatus: r.railStatus, reference: r.reference });
  if (action === 'RESEND') return keyedCommand(refundCmd.resendRefundCommand, { transactionId, attempt }, key, view);
  if (action === 'HAND_TO_RAIL')
    return keyedCommand(refundCmd.handToRailCommand, { transactionId }, key, (r) => ({
      railStatus: null,
      reference: r.transactionId,
    }));
  if (action === 'TAKE_BACK')
    return keyedCommand(refundCmd.takeBackPullCommand, { transactionId, reason }, key, (r) => ({
      railStatus: r.railStatus,
      reference: transactionId,
    }));
  if (action === 'RECORD_PAYER_OWES')
    return keyedCommand(refundCmd.recordPayerOwesCommand, { transactionId, attempt }, key, view);
  if (action === 'CLOSE_REVERSED')
    return keyedCommand(refundCmd.closeRepaidByReversalCommand, { transactionId, attempt }, key, view);
  return keyedCommand(refundCmd.recordRefundedOutsideCommand, { transactionId, attempt, reason }, key, view);
}

// An attempt as a client component shows it (dates as ISO text, the excerpt capped).
function attemptView(a: DeliveryAttempt) {
  return {
    attempt: a.attempt,
    startedAt: a.startedAt.toISOString(),
    responseStatus: a.responseStatus,
    error: a.error,
    latencyMs: a.latencyMs,
    responseExcerpt: a.responseExcerpt?.slice(0, 300) ?? null,
    succeeded: a.succeeded,
  };
}
