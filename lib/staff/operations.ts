import { runAs } from '../core/context';
import { parseBodyOrThrow } from '../core/validation';
import * as verifications from '../verifications/service';
import * as webhookLog from '../webhooks/log';
import * as tokens from '../tokens/service';
import { tokenCreate } from '../tokens/schema';
import { configUpdate } from '../platform/schema';
import { updateConfig } from '../platform/service';
import { advanceClock } from '../sandbox/clock';
import * as cards from '../cards/service';
import { approveAction, rejectAction } from '../agents/approvals';
import * as agents from '../agents/service';
import { db } from '../core/db';
import { regenerate } from '../agents/device-codes';
import { agentPolicyUpdate, type AgentPolicyUpdate } from '../agents/schema';
import { isSandbox } from '../core/mode';
import { DomainError } from '../core/errors';
import { audited, type AuditIntent } from './audit';
import { checkReviewReason, type ReviewReason } from './review-reasons';
import { requireRole, type StaffActor, type StaffRole } from './roles';

// What staff do from the console, each through the same service the API calls, as the staff
// actor (so the platform's sandbox clock applies and the services know who acted), after the
// role check, and recorded in the audit trail on the object acted on: the entry is written before
// the action and marked done after it (lib/staff/audit.ts audited), so that an action is never
// without its entry, even when the process dies in between. Server actions are thin wrappers
// around these (app/console/_lib/actions.ts).
export function act<T>(
  actor: StaffActor,
  needed: StaffRole,
  intent: AuditIntent,
  fn: () => Promise<T>,
  done?: (result: T) => Partial<AuditIntent>,
): Promise<T> {
  return runAs(actor, async () => {
    requireRole(actor, needed);
    return audited(actor, intent, fn, done);
  });
}

/**
 * A reviewer's decision on a verification waiting in PENDING_MANUAL_REVIEW, with its reason code
 * and note, both recorded on the customer's timeline (the audit entry moves to the customer).
 */
export function decideReview(
  actor: StaffActor,
  verificationId: string,
  decision: 'APPROVED' | 'REJECTED',
  why: ReviewReason,
) {
  const reason = checkReviewReason(decision, why);
  return act(
    actor,
    'operator',
    {
      action: decision === 'APPROVED' ? 'verification.approve' : 'verification.reject',
      objectId: verificationId,
      details: { verificationId, ...reason },
    },
    () => verifications.decideReview(actor.platformId, verificationId, decision),
    (v) => ({ objectId: v.customerId }),
  );
}

/** Sends a webhook event again (recorded on the event). */
export function replayWebhook(actor: StaffActor, eventId: string) {
  return act(
    actor,
    'operator',
    { action: 'webhook.replay', objectId: eventId },
    () => webhookLog.replay(actor.platformId, eventId, actor.email),
    (d) => ({
      details: {
        type: d.type,
        ...(d.subjectId ? { subjectId: d.subjectId } : {}),
        attempt: d.replayAttempt.attempt,
        succeeded: d.replayAttempt.succeeded,
        ...(d.replayAttempt.responseStatus !== null ? { responseStatus: d.replayAttempt.responseStatus } : {}),
      },
    }),
  );
}

/** Sends a TEST webhook to the configured endpoint (moves nothing; recorded on the platform). */
export function sendTestWebhook(actor: StaffActor) {
  return act(
    actor,
    'operator',
    { action: 'webhook.test', objectId: actor.platformId },
    () => webhookLog.sendTestEvent(actor.platformId),
    (r) => ({
      details: {
        eventId: r.eventId,
        delivered: r.delivered,
        ...(r.attempt.responseStatus !== null ? { responseStatus: r.attempt.responseStatus } : {}),
      },
    }),
  );
}

/** Chooses which event kinds the platform's webhook endpoint receives (all of them: the default). */
export function chooseWebhookKinds(actor: StaffActor, kinds: string[]) {
  return act(
    actor,
    'admin',
    { action: 'webhook.kinds', objectId: actor.platformId, details: { chosen: kinds.length } },
    () => webhookLog.chooseEventKinds(actor.platformId, kinds),
    (r) => ({ details: r.all ? { all: true } : { kinds: r.chosen } }),
  );
}

/** Moves the platform's sandbox clock forward and runs what fell due (sandbox only). */
export function advanceSandboxClock(actor: StaffActor, seconds: number) {
  return act(
    actor,
    'operator',
    { action: 'sandbox.clock.advance', objectId: actor.platformId, details: { seconds } },
    () => {
      if (!isSandbox()) throw new DomainError('FORBIDDEN', 'The sandbox clock exists in sandbox mode only');
      if (!Number.isInteger(seconds) || seconds < 1 || seconds > 366 * 86400)
        throw new DomainError('INVALID_INPUT', 'seconds must be a whole number from 1 to 31622400 (366 days)');
      return advanceClock(actor.platformId, seconds);
    },
    (r) => ({ details: { seconds, now: r.now } }),
  );
}

/** Issues an API token; its secret is in the result only (shown once). */
export function createToken(actor: StaffActor, input: { name: string; permissions: string[] }) {
  return act(
    actor,
    'admin',
    { action: 'token.create', objectId: actor.platformId, details: { name: input.name } },
    () => {
      const body = parseBodyOrThrow(tokenCreate, input);
      return tokens.issue(actor.platformId, body.name, body.permissions, {}, db());
    },
    (t) => ({ objectId: t.id, details: { name: t.name, permissions: t.permissions } }),
  );
}

export function revokeToken(actor: StaffActor, tokenId: string) {
  return act(actor, 'admin', { action: 'token.revoke', objectId: tokenId }, () =>
    tokens.revoke(actor.platformId, tokenId, undefined),
  );
}

/** Changes the platform configuration with the API's own validation (PATCH /config's body). */
export function changeConfig(actor: StaffActor, patch: Record<string, unknown>) {
  return act(
    actor,
    'admin',
    { action: 'config.update', objectId: actor.platformId, details: { fields: Object.keys(patch) } },
    () => updateConfig(actor.platformId, parseBodyOrThrow(configUpdate, patch)),
  );
}

/** Freezes, unfreezes or closes a card through the card service's state machine (recorded on the card). */
export function setCardState(actor: StaffActor, cardId: string, state: 'ACTIVE' | 'FROZEN' | 'CLOSED') {
  return act(
    actor,
    'operator',
    { action: `card.${state.toLowerCase()}`, objectId: cardId, details: { state } },
    () => cards.update(actor.platformId, cardId, { state }),
    (c) => ({ objectId: c.id, details: { state: c.state } }),
  );
}

/**
 * Approves an agent action waiting for the platform: the same code path as POST
 * /agents/{agentId}/actions/{actionId}/approve, so the money moves once (recorded on the action).
 */
export function approveAgentAction(actor: StaffActor, actionId: string) {
  return act(
    actor,
    'operator',
    { action: 'agent_action.approve', objectId: actionId },
    () => approveAction(actor, null, actionId),
    (a) => ({ objectId: a.id, details: { agentId: a.agentId, status: a.status } }),
  );
}

/** Rejects an agent action with a reason (the API's reject): nothing moves, its limits are given back. */
export function rejectAgentAction(actor: StaffActor, actionId: string, reason: string) {
  return act(
    actor,
    'operator',
    { action: 'agent_action.reject', objectId: actionId, details: { reason: reason.trim() } },
    () => {
      const why = reason.trim();
      if (!why || why.length > 1000)
        throw new DomainError('INVALID_INPUT', 'A reason of 1 to 1000 characters is required to reject', {
          errors: [{ field: 'reason', message: 'A reason of 1 to 1000 characters is required' }],
        });
      return rejectAction(actor, null, actionId, why);
    },
    (a) => ({ objectId: a.id, details: { agentId: a.agentId, reason: reason.trim() } }),
  );
}

const jsonSafe = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (_key, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)));

/** Pauses or resumes an agent (the API's PATCH /agents/{id}): a paused agent's requests are refused at once. */
export function setAgentPaused(actor: StaffActor, agentId: string, isPaused: boolean) {
  return act(
    actor,
    'operator',
    { action: isPaused ? 'agent.pause' : 'agent.resume', objectId: agentId },
    () => agents.update(actor.platformId, agentId, { isPaused }),
    (a) => ({ objectId: a.id, details: { isPaused: a.isPaused } }),
  );
}

/**
 * The console's form edits which accounts an agent may use, not its per-account rules; the API
 * replaces accountRestrictions whole, so the rules in force are carried over.
 */
async function keepAccountRules(platformId: string, agentId: string, input: Record<string, unknown>) {
  const r = input.accountRestrictions as Record<string, unknown> | undefined;
  if (!r || 'accountRules' in r) return input;
  const rules = (await agents.get(platformId, agentId)).policy.accountRestrictions?.accountRules;
  return rules ? { ...input, accountRestrictions: { ...r, accountRules: rules } } : input;
}

/**
 * Changes an agent's policy with the API's own validation (PATCH /agents/{id}/policy's body). An
 * admin's: the policy sets how much money the agent may move without anyone's approval.
 */
export function changeAgentPolicy(actor: StaffActor, agentId: string, input: Record<string, unknown>) {
  let change: AgentPolicyUpdate = {};
  return act(
    actor,
    'admin',
    { action: 'agent.policy.update', objectId: agentId, details: { fields: Object.keys(input) } },
    async () => {
      change = parseBodyOrThrow(agentPolicyUpdate, await keepAccountRules(actor.platformId, agentId, input));
      return agents.updatePolicy(actor.platformId, agentId, change);
    },
    // What was set, amounts as decimal strings (the entry is JSON; amounts are bigint), the limits
    // with the currency they are in (the console shows them in major units of it).
    (a) => ({
      objectId: a.id,
      details: {
        set: jsonSafe(
          change.spendingLimits
            ? { ...change, spendingLimits: { currency: a.policy.spendingLimits.currency, ...change.spendingLimits } }
            : change,
        ),
      },
    }),
  );
}

/**
 * Issues a new device code for an agent not yet connected, retiring its earlier codes. The code is
 * in the result only (shown once); the audit entry keeps its expiry, never the code.
 */
export function regenerateDeviceCode(actor: StaffActor, agentId: string) {
  return act(
    actor,
    'operator',
    { action: 'agent.device_code.regenerate', objectId: agentId },
    () => regenerate(actor.platformId, agentId),
    (c) => ({ objectId: c.agentId, details: { expiresAt: c.expiresAt.toISOString() } }),
  );
}
