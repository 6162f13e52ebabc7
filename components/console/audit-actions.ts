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
};

export const auditActionLabel = (action: string): string => AUDIT_ACTIONS[action] ?? action;
