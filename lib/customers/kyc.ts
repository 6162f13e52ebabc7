import { DomainError } from '../core/errors';
import { kycProvider, type KycStatus } from './kyc-provider';

// KYC decisions sit behind the provider port (lib/verifications/provider.ts). Sandbox: the
// specification's table, by the last three characters of an individual's fullName. Outside
// sandbox no vendor is connected yet, so every customer starts UNVERIFIED and waits for verification.
export type KycDecision = KycStatus;

export function initialKycStatus(fullName: string | undefined): KycDecision {
  return kycProvider.get().initialKycStatus(fullName);
}

/** The webhook announcing a KYC/KYB status, when there is one for it. */
export function statusEvent(kind: 'KYC' | 'KYB', status: string) {
  switch (status) {
    case 'APPROVED':
    case 'REJECTED':
    case 'PENDING':
      return `CUSTOMER.${kind}_${status}` as const;
    default:
      return null;
  }
}

/** Money moves for a customer only once its KYC (individuals) or KYB (businesses) is APPROVED. */
export function requireVerified(customer: {
  id: string;
  customerType: string;
  kycStatus: string | null;
  kybStatus: string | null;
}): void {
  const status = customer.customerType === 'INDIVIDUAL' ? customer.kycStatus : customer.kybStatus;
  if (status !== 'APPROVED')
    throw new DomainError(
      'USER_NOT_READY',
      `Customer ${customer.id} cannot move money until verification is APPROVED (it is ${status})`,
    );
}
