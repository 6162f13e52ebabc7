import { port, type AdapterStatus } from '../core/ports';
import { DomainError } from '../core/errors';

// The stablecoin provider (Brale) as the service needs it: verify credentials, look a token up,
// start an operation and report where it stands. Plugged in by lib/wiring.ts: the sandbox
// simulation (sandbox-provider.ts) in sandbox mode; a real Brale HTTP client would be another
// implementation of this interface, with nothing in the service changed.
export type ProviderEnvironment = 'SANDBOX' | 'PRODUCTION';

export interface ProviderCredentials {
  apiClientId: string;
  apiClientSecret: string;
}

export interface ProviderContext {
  environment: ProviderEnvironment;
  credentials: ProviderCredentials;
  providerAccountId: string;
}

/** Credentials the provider refused: never usable (INVALID) or withdrawn by their owner (REVOKED). */
export type CredentialRefusal = 'INVALID' | 'REVOKED';

export type CredentialCheck =
  { ok: true; providerAccountIds: string[] } | { ok: false; refusal: CredentialRefusal; message: string };

export interface TokenInfo {
  name: string;
  symbol: string;
  baseCurrency: string;
  decimals: number;
  issuanceStatus: 'PENDING_REVIEW' | 'PROVISIONING' | 'PROVISIONED' | 'REJECTED' | 'FAILED';
}

/** What the provider is asked to do (ids of Grid accounts are resolved to provider addresses by the client). */
export interface OperationOrder {
  operationId: string;
  operationType: 'MINT' | 'BURN';
  providerTokenIdentifier: string;
  amount: bigint;
  /** The same value in base-currency cents. */
  fiatAmount: bigint;
  baseCurrency: string;
  /** Source variant: WIRE, ACH_DEBIT, SAME_DAY_ACH_DEBIT, EXTERNAL_ACCOUNT, GRID_INTERNAL_ACCOUNT, PROVIDER_INTERNAL_BALANCE. */
  sourceType: string;
  /** Bank or wallet identifier of an external source or destination, when there is one. */
  sourceIdentifier?: string;
  destinationIdentifier?: string;
  payoutRail?: string;
}

export interface ProviderOperation {
  providerReference: string;
  providerStatus: string;
  /** Where the issuer sends funds, for operations that wait for them (wire mints, external burns). */
  fundingInstructions?: Record<string, string>;
  /** When to ask where it stands (null: nothing is expected before the funding window closes). */
  checkAfterSeconds: number | null;
}

/** Where the provider says an operation stands now. */
export type OperationReport =
  | { state: 'AWAITING_FUNDS'; providerStatus: string; checkAfterSeconds: number | null }
  | { state: 'FUNDS_RECEIVED'; providerStatus: string; checkAfterSeconds: number }
  | { state: 'COMPLETED'; providerStatus: string }
  | { state: 'FAILED'; providerStatus: string; failureReason: string };

export interface StablecoinProviderClient {
  /** `use` is a check before an operation on an existing link; `link` the first check. */
  verifyCredentials(
    environment: ProviderEnvironment,
    credentials: ProviderCredentials,
    purpose: 'link' | 'use',
    providerAccountId?: string,
  ): Promise<CredentialCheck>;
  /** The provider's token, or null when it has none by that identifier. */
  lookupToken(
    ctx: ProviderContext,
    providerTokenIdentifier: string,
    networkTokenIdentifier: string,
  ): Promise<TokenInfo | null>;
  /** Where the provider's review of a registered token stands. */
  tokenStatus(
    ctx: ProviderContext,
    providerTokenIdentifier: string,
    registeredAt: Date,
  ): Promise<TokenInfo['issuanceStatus']>;
  createOperation(ctx: ProviderContext, order: OperationOrder): Promise<ProviderOperation>;
  operationStatus(
    ctx: ProviderContext,
    order: OperationOrder & { providerReference: string; createdAt: Date },
  ): Promise<OperationReport>;
  describe(): AdapterStatus;
}

export const stablecoinProvider = port<StablecoinProviderClient>('stablecoins.provider');

/**
 * Outside the sandbox with no provider client configured: nothing can be verified, so nothing
 * links (and so nothing registers or moves).
 */
export const unconnectedProvider: StablecoinProviderClient = {
  async verifyCredentials() {
    return {
      ok: false,
      refusal: 'INVALID',
      message: 'No BRALE production client is configured on this service; the credentials cannot be verified',
    };
  },
  lookupToken: unavailable,
  tokenStatus: unavailable,
  createOperation: unavailable,
  operationStatus: unavailable,
  describe: () => ({
    party: 'stablecoin provider',
    adapter: 'none',
    connected: false,
    detail:
      'no Brale client connected: provider credentials cannot be verified, so nothing links, registers or moves ' +
      `(linking answers INVALID); no production client ships yet (${'docs/operations.md#providers-what-is-real-and-what-to-connect'})`,
  }),
};

async function unavailable(): Promise<never> {
  throw new DomainError('SERVICE_UNAVAILABLE', 'The stablecoin provider is not reachable from this service');
}
