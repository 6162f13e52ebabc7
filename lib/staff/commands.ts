import { z } from 'zod';
import { defineCommand } from '../core/command';
import type { Actor } from '../core/context';
import { tokenCreate } from '../tokens/schema';
import * as ops from './operations';
import { REVIEW_REASON_CODES } from './review-reasons';
import { ROLES, type StaffActor } from './roles';
import * as invitations from './invitations';
import * as factor from './second-factor';
import * as staff from './service';

// The console's mutations as commands, run as the signed-in staff member (app/console/_lib/actions.ts):
// the runner checks the role and the input; the domain call is lib/staff/operations.ts (or
// service.ts for staff accounts), which records the audit entry around it. Approving an agent's
// payment takes an idempotency key (a repeated click pays once and answers alike; its answer is
// recorded in the transaction that moves the money). Moving the sandbox clock takes none: its
// answer (the jobs that ran) is known only after its effect, so it could not be recorded with it; the
// commands whose answer is a secret shown once (a token's secret, a password, a device code) take
// none, since a key's record keeps the answer and a secret is never stored in the clear.
const id = z.string().min(1).max(100);
const staffOf = (actor: Actor) => actor as StaffActor;

export const decideReview = defineCommand({
  name: 'console.verification.decide',
  input: z.object({
    verificationId: id,
    decision: z.enum(['APPROVED', 'REJECTED']),
    reasonCode: z.enum(REVIEW_REASON_CODES),
    note: z.string().trim().max(1000).default(''),
  }),
  actors: { staff: 'operator' },
  idempotency: 'none',
  run: (actor, b) =>
    ops.decideReview(staffOf(actor), b.verificationId, b.decision, { reasonCode: b.reasonCode, note: b.note }),
});

export const replayWebhook = defineCommand({
  name: 'console.webhook.replay',
  input: z.object({ eventId: id }),
  actors: { staff: 'operator' },
  idempotency: 'none',
  run: (actor, b) => ops.replayWebhook(staffOf(actor), b.eventId),
});

export const sendTestWebhook = defineCommand({
  name: 'console.webhook.test',
  input: z.object({}),
  actors: { staff: 'operator' },
  idempotency: 'none',
  run: (actor) => ops.sendTestWebhook(staffOf(actor)),
});

export const chooseWebhookKinds = defineCommand({
  name: 'console.webhook.kinds',
  input: z.object({ eventTypes: z.array(z.string().max(64)).max(100) }),
  actors: { staff: 'admin' },
  idempotency: 'none',
  run: (actor, b) => ops.chooseWebhookKinds(staffOf(actor), b.eventTypes),
});

export const advanceClock = defineCommand({
  name: 'console.sandbox.clock.advance',
  input: z.object({
    seconds: z
      .number()
      .int()
      .min(1)
      .max(366 * 86400),
  }),
  actors: { staff: 'operator' },
  idempotency: 'optional',
  run: (actor, b) => ops.advanceSandboxClock(staffOf(actor), b.seconds),
});

export const createToken = defineCommand({
  name: 'console.token.create',
  input: tokenCreate,
  actors: { staff: 'admin' },
  idempotency: 'none',
  run: (actor, b) => ops.createToken(staffOf(actor), b),
});

export const revokeToken = defineCommand({
  name: 'console.token.revoke',
  input: z.object({ tokenId: id }),
  actors: { staff: 'admin' },
  idempotency: 'none',
  run: (actor, b) => ops.revokeToken(staffOf(actor), b.tokenId),
});

export const setWebhookEndpoint = defineCommand({
  name: 'console.config.webhook-endpoint',
  // An empty field clears the endpoint; the URL itself is checked as PATCH /config checks it.
  input: z.object({
    webhookEndpoint: z
      .string()
      .max(2048)
      .transform((s) => s || null),
  }),
  actors: { staff: 'admin' },
  idempotency: 'none',
  run: (actor, b) => ops.changeConfig(staffOf(actor), { webhookEndpoint: b.webhookEndpoint }),
});

// A new member comes in by a one-time link (lib/staff/invitations.ts) and sets their own password.
export const inviteStaff = defineCommand({
  name: 'console.staff.invite',
  input: z.object({ email: z.string().max(254), role: z.enum(ROLES as [string, ...string[]]) }),
  actors: { staff: 'admin' },
  idempotency: 'none',
  run: (actor, b) => invitations.invite(staffOf(actor), b),
});

export const revokeInvitation = defineCommand({
  name: 'console.staff.invite.revoke',
  input: z.object({ invitationId: id }),
  actors: { staff: 'admin' },
  idempotency: 'none',
  run: (actor, b) => invitations.revoke(staffOf(actor), b.invitationId),
});

export const setStaffRole = defineCommand({
  name: 'console.staff.role',
  input: z.object({ userId: id, role: z.enum(ROLES as [string, ...string[]]) }),
  actors: { staff: 'admin' },
  idempotency: 'none',
  run: (actor, b) => staff.setRole(staffOf(actor), b.userId, b.role),
});

export const setStaffDisabled = defineCommand({
  name: 'console.staff.disabled',
  input: z.object({ userId: id, disabled: z.boolean() }),
  actors: { staff: 'admin' },
  idempotency: 'none',
  run: (actor, b) => staff.setDisabled(staffOf(actor), b.userId, b.disabled),
});

// The second factor of one's own account (any role), and an admin's reset of another member's.
// Their answers (a secret, recovery codes) are shown once, so they take no idempotency key.
const code = z.string().trim().min(1).max(40);

export const startSecondFactor = defineCommand({
  name: 'console.account.second_factor.start',
  input: z.object({}),
  actors: { staff: 'viewer' },
  idempotency: 'none',
  run: (actor) => factor.startEnrolment(staffOf(actor)),
});

export const confirmSecondFactor = defineCommand({
  name: 'console.account.second_factor.confirm',
  input: z.object({ code }),
  actors: { staff: 'viewer' },
  idempotency: 'none',
  run: (actor, b) => factor.confirmEnrolment(staffOf(actor), b.code),
});

export const disableSecondFactor = defineCommand({
  name: 'console.account.second_factor.disable',
  input: z.object({ code }),
  actors: { staff: 'viewer' },
  idempotency: 'none',
  run: (actor, b) => factor.disableOwn(staffOf(actor), b.code),
});

export const regenerateRecoveryCodes = defineCommand({
  name: 'console.account.second_factor.recovery_codes',
  input: z.object({ code }),
  actors: { staff: 'viewer' },
  idempotency: 'none',
  run: (actor, b) => factor.regenerateRecoveryCodes(staffOf(actor), b.code),
});

// One's own password and sessions (any role). The password change keeps the acting session
// and ends the others; "Sign out everywhere" ends them all.
export const changePassword = defineCommand({
  name: 'console.account.password',
  input: z.object({
    currentPassword: z.string().min(1).max(200),
    code: z.string().trim().max(40).default(''),
    newPassword: z.string().max(200),
  }),
  actors: { staff: 'viewer' },
  idempotency: 'none',
  run: (actor, b) => staff.changePassword(staffOf(actor), b),
});

export const signOutEverywhere = defineCommand({
  name: 'console.account.sessions.revoke',
  input: z.object({}),
  actors: { staff: 'viewer' },
  idempotency: 'none',
  run: (actor) => staff.signOutEverywhere(staffOf(actor)),
});

export const resetSecondFactor = defineCommand({
  name: 'console.staff.second_factor.reset',
  input: z.object({ userId: id }),
  actors: { staff: 'admin' },
  idempotency: 'none',
  run: (actor, b) => factor.resetFor(staffOf(actor), b.userId),
});

export const setCardState = defineCommand({
  name: 'console.card.state',
  input: z.object({ cardId: id, state: z.enum(['ACTIVE', 'FROZEN', 'CLOSED']) }),
  actors: { staff: 'operator' },
  idempotency: 'none',
  run: (actor, b) => ops.setCardState(staffOf(actor), b.cardId, b.state),
});

export const approveAgentAction = defineCommand({
  name: 'console.agent-action.approve',
  input: z.object({ actionId: id }),
  actors: { staff: 'operator' },
  idempotency: 'optional',
  run: (actor, b) => ops.approveAgentAction(staffOf(actor), b.actionId),
});

export const rejectAgentAction = defineCommand({
  name: 'console.agent-action.reject',
  input: z.object({ actionId: id, reason: z.string().trim().min(1).max(1000) }),
  actors: { staff: 'operator' },
  idempotency: 'none',
  run: (actor, b) => ops.rejectAgentAction(staffOf(actor), b.actionId, b.reason),
});

export const setAgentPaused = defineCommand({
  name: 'console.agent.paused',
  input: z.object({ agentId: id, isPaused: z.boolean() }),
  actors: { staff: 'operator' },
  idempotency: 'none',
  run: (actor, b) => ops.setAgentPaused(staffOf(actor), b.agentId, b.isPaused),
});

// The policy form's fields. Amounts arrive in the smallest unit of their currency, as digits: the
// form reads what the person typed in major units ("1,000.00") with lib/core/amount-input.ts and
// sends the result, so the server never guesses at separators. Anything else goes to PATCH
// /agents/{id}/policy's validation as sent, which refuses it on its field. A daily or monthly
// limit, or the approval threshold, sent empty is "none"; allowed accounts sent null is "any".
const typed = z.string().max(40).optional();
const whole = (v: string) => (/^-?\d{1,20}$/.test(v.trim()) ? BigInt(v.trim()) : v.trim());
const policyForm = z.object({
  defaultExecutionMode: typed,
  perTransactionLimit: typed,
  dailyLimit: typed,
  monthlyLimit: typed,
  dailyTransactionLimit: typed,
  approvalThreshold: typed,
  approvalThresholdCurrency: typed,
  permissions: z.array(z.string().max(40)).max(10).optional(),
  allowedAccountIds: z.array(z.string().max(255)).max(1000).nullable().optional(),
});
export type PolicyForm = z.input<typeof policyForm>;

function policyChange(f: z.output<typeof policyForm>): Record<string, unknown> {
  const limits: Record<string, unknown> = {};
  if (f.perTransactionLimit !== undefined) limits.perTransactionLimit = whole(f.perTransactionLimit);
  for (const k of ['dailyLimit', 'monthlyLimit'] as const) {
    const v = f[k];
    if (v !== undefined) limits[k] = v.trim() ? whole(v) : null;
  }
  if (f.dailyTransactionLimit !== undefined) {
    const n = whole(f.dailyTransactionLimit);
    limits.dailyTransactionLimit = typeof n === 'bigint' ? Number(n) : n;
  }
  const threshold =
    f.approvalThreshold === undefined && f.approvalThresholdCurrency === undefined
      ? undefined
      : f.approvalThreshold?.trim()
        ? { currency: f.approvalThresholdCurrency, amount: whole(f.approvalThreshold) }
        : { amount: null };
  return {
    ...(f.defaultExecutionMode !== undefined ? { defaultExecutionMode: f.defaultExecutionMode } : {}),
    ...(Object.keys(limits).length ? { spendingLimits: limits } : {}),
    ...(f.permissions !== undefined ? { permissions: f.permissions } : {}),
    ...(threshold ? { approvalThresholds: threshold } : {}),
    ...(f.allowedAccountIds !== undefined ? { accountRestrictions: { allowedAccountIds: f.allowedAccountIds } } : {}),
  };
}

export const changeAgentPolicy = defineCommand({
  name: 'console.agent.policy',
  input: z.object({ agentId: id, form: policyForm }),
  actors: { staff: 'admin' },
  idempotency: 'none',
  run: (actor, b) => ops.changeAgentPolicy(staffOf(actor), b.agentId, policyChange(b.form)),
});

export const regenerateDeviceCode = defineCommand({
  name: 'console.agent.device-code',
  input: z.object({ agentId: id }),
  actors: { staff: 'operator' },
  idempotency: 'none',
  run: (actor, b) => ops.regenerateDeviceCode(staffOf(actor), b.agentId),
});
