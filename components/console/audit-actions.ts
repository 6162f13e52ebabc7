import { formatAmount } from '../format';

// What each staff action recorded in the audit log (lib/staff/audit) reads as, for the audit
// pages, the audit log's action filter (app/console/_lib/list-filters.ts) and its CSV export.
// An action not named here shows as its code.
export const AUDIT_ACTIONS: Record<string, string> = {
  'verification.approve': 'Approved the verification',
  'verification.reject': 'Rejected the verification',
  'webhook.replay': 'Replayed the webhook',
  'webhook.test': 'Sent a test webhook',
  'webhook.kinds': 'Chose the webhook event kinds',
  'sandbox.clock.advance': 'Advanced the sandbox clock',
  'token.create': 'Created the API token',
  'token.revoke': 'Revoked the API token',
  'config.update': 'Changed the configuration',
  'staff.create': 'Added the staff user',
  'staff.role': 'Changed the role',
  'staff.disable': 'Disabled the staff user',
  'staff.enable': 'Enabled the staff user',
  'staff.sign_in': 'Signed in',
  'staff.sign_in_refused': 'Sign-in refused',
  'staff.invite': 'Invited a staff member',
  'staff.invite.revoke': 'Revoked the invitation',
  'staff.invite.accept': 'Accepted the invitation',
  'staff.second_factor.enrol': 'Turned on the second factor',
  'staff.second_factor.disable': 'Turned off the second factor',
  'staff.second_factor.reset': 'Reset the second factor',
  'staff.second_factor.recovery_codes': 'Generated new recovery codes',
  'staff.second_factor.recovery_codes.refused': 'New recovery codes refused',
  'staff.password.change': 'Changed their password',
  'staff.password.change.refused': 'Password change refused',
  'staff.sessions.revoke': 'Signed out everywhere',
  'card.frozen': 'Froze the card',
  'card.active': 'Unfroze the card',
  'card.closed': 'Closed the card',
  'agent_action.approve': 'Approved the agent action',
  'agent_action.reject': 'Rejected the agent action',
  'agent.pause': 'Paused the agent',
  'agent.resume': 'Resumed the agent',
  'agent.policy.update': "Changed the agent's policy",
  'agent.device_code.regenerate': 'Generated a new device code',
  'list.export': 'Exported a list as CSV',
  'refund.resend': 'Sent the refund to the rail again',
  'refund.record_outside': 'Recorded the refund as made outside Corridor',
  'refund.close_reversed': 'Closed the refund: the payer was repaid by the reversal',
  'pull.take_back': "Took back the credit of a pull the payer's bank reversed",
  'refund.record_payer_owes': "Recorded what the payer owes after the pull's reversal",
};

export const auditActionLabel = (action: string): string => AUDIT_ACTIONS[action] ?? action;

// An audit entry's details as staff read them: "amount: 50.00 USD · attempt: 2", not the stored
// JSON. In an object that names its currency, integer figures under a money key (an amount, a
// spending limit) are minor units and are shown in major units with the currency; the rest as stored.
// (dailyTransactionLimit is a count: not money.)
const MONEY_KEY = /^(amount|payerOwes|fromAccount|customerOwes|perTransactionLimit|dailyLimit|monthlyLimit)$/;
const isMinorUnits = (v: unknown) =>
  (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^-?\d+$/.test(v));
const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

export function auditDetailText(details: Record<string, unknown>): string {
  const currency = typeof details.currency === 'string' ? details.currency : null;
  const money = (k: string, v: unknown) => currency !== null && MONEY_KEY.test(k) && isMinorUnits(v);
  const hasMoney = Object.entries(details).some(([k, v]) => money(k, v));
  return Object.entries(details)
    .filter(([k]) => !(hasMoney && k === 'currency'))
    .map(([k, v]) => `${words(k)}: ${money(k, v) ? formatAmount(v as string | number, currency) : valueText(v)}`)
    .join(' · ');
}

function valueText(v: unknown): string {
  if (Array.isArray(v)) return v.map(valueText).join(', ');
  if (v !== null && typeof v === 'object') return `(${auditDetailText(v as Record<string, unknown>)})`;
  // A recorded instant, as UTC to the minute: the entry is read on the server, with no viewer time zone.
  if (typeof v === 'string' && ISO_INSTANT.test(v)) return `${v.slice(0, 10)} ${v.slice(11, 16)} UTC`;
  return String(v);
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;
