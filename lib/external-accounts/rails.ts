import { port, type AdapterStatus } from '../core/ports';
import type { BeneficiaryVerificationStatus } from './schema';
import { verifyWalletSignature } from './signatures';
import { publicBaseUrl } from '../core/mode';

// The outside world of external accounts, behind two ports: the payment rail that checks an
// account and matches its holder's name when the account is added, and the provider that proves
// who controls a self-custody wallet. Today's implementations are the sandbox simulations the
// specification describes; lib/wiring.ts plugs them in, and a real adapter would replace them there.
export interface AccountCheckRequest {
  accountType: string;
  currency: string;
  /** Account number, IBAN, CLABE, phone, wallet address... */
  primaryIdentifier: string;
  /** The holder name to match: beneficiary fullName/legalName, or the owning customer's name. */
  beneficiaryName: string | null;
}

export type AccountCheck =
  | { valid: false; reason: string }
  | { valid: true; beneficiaryVerificationStatus: BeneficiaryVerificationStatus; verifiedName?: string };

export interface AccountRail {
  checkAccount(req: AccountCheckRequest): Promise<AccountCheck>;
  describe(): AdapterStatus;
}

export interface LivenessSession {
  verificationLink: string;
  token?: string;
  /** Sandbox only: the simulated outcome and when it arrives. */
  simulated?: { passed: boolean; afterSeconds: number };
}

export interface OwnershipProvider {
  /** Whether `signature` is the wallet's own signature of `message` (EIP-191, Ed25519, Bitcoin message...). */
  verifySignature(req: {
    accountType: string;
    address: string;
    message: string;
    signature: string;
    scheme: string;
  }): boolean;
  /** Opens a hosted biometric check; null when no liveness provider is connected. */
  startLiveness(req: { challengeId: string; externalAccountId: string }): Promise<LivenessSession | null>;
  describe(): AdapterStatus;
}

/**
 * Sandbox name check by the last 3 characters of the identifier's user part (before any `@`):
 * 102 NOT_MATCHED, 103 PARTIAL_MATCH, 104 PENDING, 105 invalid account, 106 UNSUPPORTED,
 * 107 CHECKED_BY_RECEIVING_FI, anything else MATCHED.
 */
export function sandboxSuffix(identifier: string): string {
  const at = identifier.lastIndexOf('@');
  return (at > 0 ? identifier.slice(0, at) : identifier).slice(-3);
}

/** The name a rail reports for a close-but-not-exact match: the given names as initials. */
function partialName(name: string): string {
  const words = name.trim().split(/\s+/);
  return words.length > 1
    ? [...words.slice(0, -1).map((w) => `${w[0].toUpperCase()}.`), words[words.length - 1]].join(' ')
    : name.toUpperCase();
}

export const sandboxRail: AccountRail = {
  async checkAccount({ primaryIdentifier, beneficiaryName }) {
    switch (sandboxSuffix(primaryIdentifier)) {
      case '102':
        return { valid: true, beneficiaryVerificationStatus: 'NOT_MATCHED' };
      case '103':
        return {
          valid: true,
          beneficiaryVerificationStatus: 'PARTIAL_MATCH',
          ...(beneficiaryName ? { verifiedName: partialName(beneficiaryName) } : {}),
        };
      case '104':
        return { valid: true, beneficiaryVerificationStatus: 'PENDING' };
      case '105':
        return {
          valid: false,
          reason: 'the receiving institution reports that this account does not exist or cannot receive payments',
        };
      case '106':
        return { valid: true, beneficiaryVerificationStatus: 'UNSUPPORTED' };
      case '107':
        return { valid: true, beneficiaryVerificationStatus: 'CHECKED_BY_RECEIVING_FI' };
      default:
        return {
          valid: true,
          beneficiaryVerificationStatus: 'MATCHED',
          ...(beneficiaryName ? { verifiedName: beneficiaryName } : {}),
        };
    }
  },
  describe: () => ({
    party: 'account-name check',
    adapter: 'sandbox',
    connected: false,
    detail: "results from the identifier's last three characters (102-107, README)",
  }),
};

/** Outside the sandbox with no rail connected, no name check is available. */
export const unconnectedRail: AccountRail = {
  async checkAccount() {
    return { valid: true, beneficiaryVerificationStatus: 'UNSUPPORTED' };
  },
  describe: () => ({
    party: 'account-name check',
    adapter: 'none',
    connected: false,
    detail:
      'no name-check provider connected: accounts are added with beneficiaryVerificationStatus UNSUPPORTED ' +
      `(never a pretended match); no provider adapter ships yet (${'docs/operations.md#providers-what-is-real-and-what-to-connect'})`,
  }),
};

const SANDBOX_LIVENESS_SECONDS = 30;
/** The sandbox has no biometric flow: its liveness checks pass (after the delay, or on its page). */
export const SANDBOX_LIVENESS_PASSES = true;

export const sandboxOwnershipProvider: OwnershipProvider = {
  verifySignature: ({ accountType, address, message, signature }) =>
    verifyWalletSignature(accountType, address, message, signature),
  async startLiveness({ challengeId }) {
    const base = publicBaseUrl();
    // The check passes by itself after a short delay, or at once on the sandbox liveness page
    // the link opens (app/sandbox/liveness).
    return {
      verificationLink: `${base}/sandbox/liveness/${encodeURIComponent(challengeId)}`,
      simulated: { passed: SANDBOX_LIVENESS_PASSES, afterSeconds: SANDBOX_LIVENESS_SECONDS },
    };
  },
  describe: () => ({
    party: 'liveness (wallet ownership)',
    adapter: 'sandbox',
    connected: false,
    detail: 'wallet signatures verified; liveness checks pass after 30 s or on the sandbox liveness page',
  }),
};

export const signatureOnlyProvider: OwnershipProvider = {
  verifySignature: sandboxOwnershipProvider.verifySignature,
  async startLiveness() {
    return null;
  },
  describe: () => ({
    party: 'liveness (wallet ownership)',
    adapter: 'signatures only',
    connected: false,
    detail:
      'no liveness vendor connected: wallet ownership is proved by signature (WALLET_SIGNATURE); LIVENESS ' +
      `challenges are refused with 400; no vendor adapter ships yet (${'docs/operations.md#providers-what-is-real-and-what-to-connect'})`,
  }),
};

/** The payment rail that checks accounts as they are added (plugged in by lib/wiring.ts). */
export const accountRail = port<AccountRail>('external-accounts.account-rail');
/** Who proves control of a self-custody wallet (plugged in by lib/wiring.ts). */
export const ownershipProvider = port<OwnershipProvider>('external-accounts.ownership-provider');
