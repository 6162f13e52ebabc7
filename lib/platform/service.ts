import { newId } from '../core/ids';
import { now } from '../core/clock';
import { db, inTransaction, transaction, type Tx } from '../core/db';
import { DomainError, notFound } from '../core/errors';
import { currencyInfo } from '../core/currencies';
import { openPlatformAccounts } from '../accounts/service';
import { recordEvent } from '../events/outbox';
import { signingPublicKeyPem } from '../webhooks/keys';
import { skipPendingTests } from '../webhooks/repository';
import { refuseNonPublicEndpoint } from '../webhooks/endpoint-check';
import * as repo from './repository';
import type { ConfigUpdate } from './schema';
import { announce } from '../core/invalidation';

// Platform configuration: GET/PATCH /config, and creation of sandbox platforms.
export const DEFAULT_CURRENCIES = ['USD', 'EUR', 'MXN', 'USDC'];

export function sandboxUmaDomain(): string {
  return process.env.CORRIDOR_SANDBOX_UMA_DOMAIN || 'sandbox.uma.money';
}

/** Default single-transaction maximum: ten million major units of the currency. */
function defaultMax(code: string): bigint {
  return 10_000_000n * 10n ** BigInt(currencyInfo(code)?.decimals ?? 2);
}

export function toConfig(p: repo.PlatformWithConfig, webhookSigningPublicKey?: string) {
  return {
    id: p.id,
    umaDomain: p.umaDomain,
    ...(p.proxyUmaSubdomain ? { proxyUmaSubdomain: p.proxyUmaSubdomain } : {}),
    ...(p.webhookEndpoint ? { webhookEndpoint: p.webhookEndpoint } : {}),
    ...(webhookSigningPublicKey ? { webhookSigningPublicKey } : {}),
    supportedCurrencies: p.currencies.map((c) => ({
      currencyCode: c.currencyCode,
      minAmount: c.minAmount,
      maxAmount: c.maxAmount,
      requiredCounterpartyFields: c.requiredCounterpartyFields as { name: string; mandatory: boolean }[],
      enabledTransactionTypes: c.enabledTransactionTypes,
    })),
    isRegulatedFinancialInstitution: p.isRegulatedFinancialInstitution,
    ...(p.embeddedWalletConfig ? { embeddedWalletConfig: p.embeddedWalletConfig } : {}),
    ...(p.cardTokenization2faConfig ? { cardTokenization2faConfig: p.cardTokenization2faConfig } : {}),
    feeConfigs: p.feeConfigs.map((f) => ({
      feeType: f.feeType,
      sourceCurrency: f.sourceCurrency,
      variableFeeBps: f.variableFeeBps,
      fixedFee: { amount: f.fixedFeeAmount, currency: f.fixedFeeCurrency },
    })),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export async function getConfig(platformId: string) {
  const p = await repo.findWithConfig(platformId, db());
  if (!p) throw notFound('REFERENCE_NOT_FOUND', 'Platform');
  return toConfig(p, await signingPublicKeyPem(platformId, db()));
}

export interface NewPlatform {
  name: string;
  umaDomain?: string;
  currencies?: string[];
  embeddedWallet?: boolean;
}

export async function createPlatform(input: NewPlatform, tx: Tx): Promise<string> {
  const work = async (t: Tx) => {
    const at = now();
    const id = newId('Platform');
    await repo.insert(
      {
        id,
        name: input.name,
        umaDomain: input.umaDomain ?? sandboxUmaDomain(),
        createdAt: at,
        updatedAt: at,
        ...(input.embeddedWallet === false
          ? {}
          : { embeddedWalletConfig: { appName: input.name, otpLength: 6, expirationSeconds: 300 } }),
      },
      t,
    );
    const codes = input.currencies ?? DEFAULT_CURRENCIES;
    await repo.replaceCurrencies(
      id,
      codes.map((code) => ({
        currencyCode: code,
        minAmount: 1n,
        maxAmount: defaultMax(code),
        requiredCounterpartyFields: [],
        enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
      })),
      t,
    );
    await openPlatformAccounts(id, codes, t);
    return id;
  };
  return inTransaction(tx) ? work(tx) : transaction(work);
}

function mergeObject<T extends Record<string, unknown>>(current: unknown, patch: T): Record<string, unknown> {
  const base = (current && typeof current === 'object' ? current : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    out[k] = v && typeof v === 'object' && !Array.isArray(v) ? mergeObject(base[k], v as Record<string, unknown>) : v;
  }
  return out;
}

type ConfigFees = NonNullable<ConfigUpdate['feeConfigs']>;

/** Fee configs this service can charge: USD-sourced, the fixed fee in the source currency. */
function checkFeeConfigs(fees: ConfigFees) {
  for (const [i, fee] of fees.entries()) {
    // The reference: only USD-sourced fee configs exist today; others answer NOT_IMPLEMENTED.
    if (fee.sourceCurrency !== 'USD') {
      throw new DomainError(
        'NOT_IMPLEMENTED',
        `Fee configs are only supported for sourceCurrency USD (feeConfigs[${i}] has ${fee.sourceCurrency})`,
      );
    }
    // The fixed fee is charged in the source currency: one in another currency would be stored
    // and then never charged (fx/fees.ts), so it is refused here.
    if (fee.fixedFee.currency !== fee.sourceCurrency) {
      throw new DomainError(
        'INVALID_CURRENCY',
        `The fixed fee is charged in the source currency ${fee.sourceCurrency}, not ${fee.fixedFee.currency}`,
        {
          errors: [{ field: `feeConfigs[${i}].fixedFee.currency`, message: `must be ${fee.sourceCurrency}` }],
        },
      );
    }
  }
}

/** The platform's currencies become `list`; each gets its platform accounts. */
async function replaceCurrencies(platformId: string, list: NonNullable<ConfigUpdate['supportedCurrencies']>, tx: Tx) {
  for (const [i, c] of list.entries()) {
    if (!currencyInfo(c.currencyCode)) {
      throw new DomainError('INVALID_CURRENCY', `Unsupported currency ${c.currencyCode}`, {
        errors: [
          { field: `supportedCurrencies[${i}].currencyCode`, message: 'is not a currency this service carries' },
        ],
      });
    }
  }
  // providerRequired* are the provider's, read-only: what a client sends back is dropped.
  const rows = list.map(
    ({ providerRequiredCustomerFields: _a, providerRequiredCounterpartyCustomerFields: _b, ...c }) => c,
  );
  await repo.replaceCurrencies(platformId, rows, tx);
  await openPlatformAccounts(
    platformId,
    list.map((c) => c.currencyCode),
    tx,
  );
}

async function mergeFees(platformId: string, fees: ConfigFees, at: Date, tx: Tx) {
  for (const fee of fees) {
    // Merge by (feeType, sourceCurrency); all-zero fees deactivate the config.
    if (fee.variableFeeBps === 0 && fee.fixedFee.amount === 0n) {
      await repo.deleteFee(platformId, fee.feeType, fee.sourceCurrency, tx);
    } else {
      await repo.upsertFee(
        platformId,
        {
          feeType: fee.feeType,
          sourceCurrency: fee.sourceCurrency,
          variableFeeBps: fee.variableFeeBps,
          fixedFeeAmount: fee.fixedFee.amount,
          fixedFeeCurrency: fee.fixedFee.currency,
        },
        at,
        tx,
      );
    }
  }
}

export async function updateConfig(platformId: string, patch: ConfigUpdate) {
  // Before the transaction: resolving the endpoint's name waits on DNS, never on the database.
  if (patch.webhookEndpoint) await refuseNonPublicEndpoint(patch.webhookEndpoint);
  checkFeeConfigs(patch.feeConfigs ?? []);
  const { config, change } = await transaction(async (tx) => {
    const current = await repo.findWithConfig(platformId, tx);
    if (!current) throw notFound('REFERENCE_NOT_FOUND', 'Platform');
    const at = now();
    await repo.update(
      platformId,
      {
        updatedAt: at,
        ...(patch.umaDomain !== undefined ? { umaDomain: patch.umaDomain.toLowerCase() } : {}),
        ...(patch.webhookEndpoint !== undefined ? { webhookEndpoint: patch.webhookEndpoint || null } : {}),
        ...(patch.embeddedWalletConfig
          ? { embeddedWalletConfig: mergeObject(current.embeddedWalletConfig, patch.embeddedWalletConfig) as object }
          : {}),
        ...(patch.cardTokenization2faConfig
          ? {
              cardTokenization2faConfig: mergeObject(
                current.cardTokenization2faConfig,
                patch.cardTokenization2faConfig,
              ) as object,
            }
          : {}),
      },
      tx,
    );
    if (patch.supportedCurrencies) await replaceCurrencies(platformId, patch.supportedCurrencies, tx);
    await mergeFees(platformId, patch.feeConfigs ?? [], at, tx);
    // The reference's test webhook "is sent when you configure or update your platform settings
    // with a webhook URL": queued in the outbox, delivered by the worker like any event.
    // A TEST still queued for the previous endpoint is not sent to this one.
    if (patch.webhookEndpoint && patch.webhookEndpoint !== current.webhookEndpoint) {
      await skipPendingTests(platformId, tx);
      await recordEvent(tx, platformId, 'TEST', {});
    }
    const updated = await repo.findWithConfig(platformId, tx);
    return {
      config: toConfig(updated!, await signingPublicKeyPem(platformId, tx)),
      // Every server process drops its cached settings of this platform when this commits.
      change: await announce(tx, 'platform', platformId),
    };
  });
  // After commit: dropped inside the transaction, a concurrent reader could re-cache the old
  // settings before the commit made the new ones visible.
  await change.committed();
  return config;
}
