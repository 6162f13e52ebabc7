import { port, type AdapterStatus } from '../core/ports';

// The KYC/KYB vendor port. Corridor never decides identity itself: every decision that a vendor
// would take comes from here. Sandbox: the specification's magic-value tables. Production: no
// vendor is connected yet, so complete submissions wait in PENDING_MANUAL_REVIEW for a person.
export type KycStatus = 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED' | 'HOLD';
export type Decision = 'APPROVED' | 'REJECTED';

/** What the vendor says about an individual whose data and identity document are complete. */
export type IndividualOutcome =
  { status: 'PENDING_MANUAL_REVIEW' } | { status: Decision } | { status: 'RESOLVE_ERRORS'; poorQualityDocument: true };

export interface KycProvider {
  /** The KycProvider value shown on hosted links (the reference's enum has one value). */
  readonly linkProvider: 'SUMSUB';
  /** An individual's kycStatus at creation. */
  initialKycStatus(fullName: string | undefined): KycStatus;
  /** Outcome for an individual whose submission is complete. */
  individualOutcome(fullName: string): IndividualOutcome;
  /** A decision taken before any validation of a business, or null when it must be validated. */
  businessShortcut(registrationNumber: string | null): Decision | null;
  /** A beneficial owner's KYC once its business has been decided. */
  ownerDecision(lastName: string, business: Decision): KycStatus;
  describe(): AdapterStatus;
}

const suffix = (s: string | null | undefined) => (s ?? '').slice(-3);

export const sandboxProvider: KycProvider = {
  linkProvider: 'SUMSUB',
  initialKycStatus(fullName) {
    if (!fullName) return 'UNVERIFIED';
    switch (suffix(fullName)) {
      case '001':
        return 'PENDING';
      case '002':
        return 'REJECTED';
      case '003':
        return 'UNVERIFIED';
      default:
        return 'APPROVED';
    }
  },
  // 001 and 003 are the only names that reach a complete submission from their creation status;
  // 002 and the rest were decided at creation. A customer created without a name and named
  // later follows the same table, as if its status at creation had been taken now.
  individualOutcome(fullName) {
    switch (suffix(fullName)) {
      case '001':
        return { status: 'PENDING_MANUAL_REVIEW' };
      case '002':
        return { status: 'REJECTED' };
      case '003':
        return { status: 'RESOLVE_ERRORS', poorQualityDocument: true };
      default:
        return { status: 'APPROVED' };
    }
  },
  businessShortcut(registrationNumber) {
    switch (suffix(registrationNumber)) {
      case '001':
      case '003':
        return null;
      case '002':
        return 'REJECTED';
      default:
        return 'APPROVED';
    }
  },
  ownerDecision(lastName) {
    switch (suffix(lastName)) {
      case '001':
        return 'PENDING';
      case '002':
        return 'REJECTED';
      default:
        return 'APPROVED';
    }
  },
  describe: () => ({
    party: 'KYC/KYB',
    adapter: 'sandbox',
    connected: false,
    detail: 'decisions from the magic values in names and registration numbers (README)',
  }),
};

export const manualReviewProvider: KycProvider = {
  linkProvider: 'SUMSUB',
  initialKycStatus: () => 'UNVERIFIED',
  individualOutcome: () => ({ status: 'PENDING_MANUAL_REVIEW' }),
  businessShortcut: () => null,
  // The reviewer who decided the business looked at its owners' documents too.
  ownerDecision: (_lastName, business) => business,
  describe: () => ({
    party: 'KYC/KYB',
    adapter: 'manual review',
    connected: false,
    detail:
      'no KYC/KYB vendor connected: complete submissions wait in PENDING_MANUAL_REVIEW for a staff reviewer ' +
      '(console: the customer page); no vendor adapter ships yet (docs/operations.md#providers-what-is-real-and-what-to-connect)',
  }),
};

/** Who decides KYC/KYB (plugged in by lib/wiring.ts). */
export const kycProvider = port<KycProvider>('customers.kyc-provider');
