import { isSandbox } from '../http/endpoint';

// KYC decisions sit behind this port. Sandbox: the specification's table, by the last three
// characters of an individual's fullName. Outside sandbox no vendor is connected yet, so every
// customer starts UNVERIFIED and waits for verification.
export type KycDecision = 'PENDING' | 'REJECTED' | 'UNVERIFIED' | 'APPROVED';

export function initialKycStatus(fullName: string | undefined): KycDecision {
  if (!isSandbox() || !fullName) return 'UNVERIFIED';
  switch (fullName.slice(-3)) {
    case '001':
      return 'PENDING';
    case '002':
      return 'REJECTED';
    case '003':
      return 'UNVERIFIED';
    default:
      return 'APPROVED';
  }
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
