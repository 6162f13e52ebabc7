import { randomUUID } from 'node:crypto';

// Record identifiers are `<Kind>:<uuid>` (interface spec, Conventions).
export type IdKind =
  | 'Platform'
  | 'Token'
  | 'Customer'
  | 'InternalAccount'
  | 'ExternalAccount'
  | 'Verification'
  | 'BeneficialOwner'
  | 'Document'
  | 'BulkCustomerImportJob'
  | 'Quote'
  | 'Transaction'
  | 'Lookup'
  | 'AuthMethod'
  | 'Session'
  | 'Request'
  | 'DelegatedKey'
  | 'Webhook'
  | 'WebhookAttempt'
  | 'Job'
  | 'LedgerEntry'
  | 'LedgerAccount'
  | 'LedgerTransfer'
  | 'Invitation'
  | 'Agent'
  | 'AgentAction'
  | 'Card'
  | 'CardTransaction'
  | 'CardEvent'
  | 'CardReveal'
  | 'Stablecoin'
  | 'StablecoinProviderAccount'
  | 'StablecoinOperation'
  | 'Refund'
  | 'Challenge'
  | 'OneTimeCode'
  | 'StaffUser'
  | 'StaffSession'
  | 'StaffAction'
  | 'StaffSignInChallenge'
  | 'StaffInvitation'
  | 'ScaFactor'
  | 'ScaSession'
  | 'TwoFactorReset';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export function newId(kind: IdKind): string {
  return `${kind}:${randomUUID()}`;
}

export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${kind}:${UUID}$`, 'i');
}

export function isId(kind: IdKind, value: string): boolean {
  return idPattern(kind).test(value);
}
