import type { LinkRow, OperationRow, StablecoinRow } from './repository';

// Rows to API objects. A link never carries its credentials; an operation never its ledger plan.
const optional = <K extends string, V>(key: K, value: V | null | undefined) =>
  (value === null || value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

export const toProviderAccount = (r: LinkRow) => ({
  id: r.id,
  provider: r.provider,
  providerAccountId: r.providerAccountId,
  providerEnvironment: r.providerEnvironment,
  status: r.status,
  ...optional('lastVerifiedAt', r.lastVerifiedAt),
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const toStablecoin = (r: StablecoinRow) => ({
  id: r.id,
  name: r.name,
  symbol: r.symbol,
  baseCurrency: r.baseCurrency,
  network: r.network,
  decimals: r.decimals,
  issuanceStatus: r.issuanceStatus,
  gridOperationsStatus: r.gridOperationsStatus,
  networkTokenIdentifier: r.networkTokenIdentifier,
  ...optional('currency', r.currency),
  provider: r.provider,
  stablecoinProviderAccountId: r.stablecoinProviderAccountId,
  providerEnvironment: r.providerEnvironment,
  providerTokenIdentifier: r.providerTokenIdentifier,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const toOperation = (r: OperationRow) => ({
  id: r.id,
  stablecoinId: r.stablecoinId,
  operationType: r.operationType,
  status: r.status,
  amount: r.amount.toString(),
  provider: r.provider,
  providerEnvironment: r.providerEnvironment,
  stablecoinProviderAccountId: r.stablecoinProviderAccountId,
  source: r.source,
  ...optional('fundingInstructions', r.fundingInstructions),
  destination: r.destination,
  ...optional('estimatedDelivery', r.estimatedDelivery),
  ...optional('expiresAt', r.expiresAt),
  ...optional('providerStatus', r.providerStatus),
  ...optional('failureReason', r.failureReason),
  ...optional('description', r.description),
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
