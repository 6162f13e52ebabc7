import { newId } from '../core/ids';
import { addSeconds, now } from '../core/clock';
import { db, type Prisma } from '../core/db';
import { effect } from '../core/idempotency';
import { DomainError, conflict, notFound } from '../core/errors';
import { INT64_MAX } from '../core/fields';
import { pageOf } from '../core/list';
import { balances } from '../ledger/service';
import { InsufficientFunds } from '../ledger/service';
import { enqueue } from '../jobs/queue';
import * as repo from './repository';
import { toOperation } from './presenter';
import { usableLink } from './links';
import { findOrThrow } from './service';
import { stablecoinProvider, type OperationOrder } from './provider';
import { burnDestination, burnSource, mintDestination, mintSource, type Plan, type PlanIn } from './accounts';
import { hold } from './postings';
import type { BurnRequest, MintRequest } from './schema';

// Mint and burn operations: checked, submitted to the provider, recorded with their ledger plan
// (and an internal source's funds held) in one transaction with the Idempotency-Key's answer,
// then followed on a timer (job stablecoin.poll, jobs.ts) as the provider reports progress.
export const POLL_JOB = 'stablecoin.poll';
/** How long the provider waits for an issuer's wire or token transfer (reference example: a week). */
export const FUNDING_WINDOW_SECONDS = 7 * 24 * 3600;

/** The amount in base-currency cents; it must be a whole number of cents (reference). */
export function fiatCents(amount: bigint, decimals: number): bigint {
  if (amount <= 0n || amount > INT64_MAX)
    throw new DomainError('INVALID_AMOUNT', 'amount must be a positive whole number of the smallest unit', {
      field: 'amount',
    });
  if (decimals <= 2) return amount * 10n ** BigInt(2 - decimals);
  const unit = 10n ** BigInt(decimals - 2);
  if (amount % unit !== 0n)
    throw new DomainError(
      'INVALID_AMOUNT',
      `amount must convert exactly to whole cents: a multiple of ${unit} for ${decimals} decimals`,
      { field: 'amount' },
    );
  return amount / unit;
}

async function usableCoin(platformId: string, stablecoinId: string) {
  const coin = await findOrThrow(platformId, stablecoinId);
  if (coin.issuanceStatus !== 'PROVISIONED')
    throw conflict(
      `Stablecoin ${coin.id} is ${coin.issuanceStatus}; only a PROVISIONED stablecoin can be minted or burned`,
    );
  return coin;
}

/** An internal source must hold the amount now (checked again, atomically, by the hold). */
async function precheckFunds(leg: PlanIn) {
  if (!leg.internalAccountId) return;
  const b = (await balances([leg.internalAccountId], db())).get(leg.internalAccountId)!;
  if (b.available < BigInt(leg.amount)) throw new InsufficientFunds(leg.internalAccountId);
}

interface Draft {
  coin: Awaited<ReturnType<typeof usableCoin>>;
  operationType: 'MINT' | 'BURN';
  amount: bigint;
  fiat: bigint;
  source: { api: object; leg: PlanIn; identifier?: string };
  destination: { api: object; leg: Plan['out']; identifier?: string };
  estimatedDelivery?: object;
  payoutRail?: string;
  description?: string;
}

async function submit(d: Draft) {
  const { link, ctx } = await usableLink(d.coin.platformId, d.coin.stablecoinProviderAccountId);
  await precheckFunds(d.source.leg);
  const id = newId('StablecoinOperation');
  const order: OperationOrder = {
    operationId: id,
    operationType: d.operationType,
    providerTokenIdentifier: d.coin.providerTokenIdentifier,
    amount: d.amount,
    fiatAmount: d.fiat,
    baseCurrency: d.coin.baseCurrency,
    sourceType: (d.source.api as { type: string }).type,
    sourceIdentifier: d.source.identifier,
    destinationIdentifier: d.destination.identifier,
    payoutRail: d.payoutRail,
  };
  // The provider is called before the transaction opens (a network call); the operation id is
  // its idempotency reference, so a provider client can recognise a repeated submission.
  const submitted = await stablecoinProvider.get().createOperation(ctx, order);
  return effect(async (tx) => {
    const at = now();
    const awaitsFunds = !!submitted.fundingInstructions;
    const plan: Plan = { provider: link.provider, in: d.source.leg, out: d.destination.leg };
    const row = await repo.insertOperation(
      {
        id,
        platformId: d.coin.platformId,
        stablecoinId: d.coin.id,
        operationType: d.operationType,
        status: awaitsFunds ? 'PENDING_FUNDING' : 'PENDING_PROVIDER',
        amount: d.amount,
        fiatAmount: d.fiat,
        provider: link.provider,
        providerEnvironment: link.providerEnvironment,
        stablecoinProviderAccountId: link.id,
        source: d.source.api,
        destination: d.destination.api,
        ...(submitted.fundingInstructions ? { fundingInstructions: submitted.fundingInstructions } : {}),
        ...(d.estimatedDelivery ? { estimatedDelivery: d.estimatedDelivery } : {}),
        plan: plan as unknown as Prisma.InputJsonValue,
        providerReference: submitted.providerReference,
        providerStatus: submitted.providerStatus,
        description: d.description ?? null,
        expiresAt: awaitsFunds ? addSeconds(at, FUNDING_WINDOW_SECONDS) : null,
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    await hold(tx, row);
    const after = submitted.checkAfterSeconds ?? FUNDING_WINDOW_SECONDS;
    await enqueue(tx, {
      platformId: row.platformId,
      kind: POLL_JOB,
      payload: { operationId: id },
      runAt: addSeconds(at, after),
    });
    return toOperation(row);
  });
}

export async function mint(platformId: string, stablecoinId: string, req: MintRequest) {
  const coin = await usableCoin(platformId, stablecoinId);
  const amount = BigInt(req.amount);
  const fiat = fiatCents(amount, coin.decimals);
  return submit({
    coin,
    operationType: 'MINT',
    amount,
    fiat,
    source: await mintSource(coin, fiat, req.fundingSource, db()),
    destination: await mintDestination(coin, amount, req.destination.accountId, db()),
    description: req.description,
  });
}

export async function burn(platformId: string, stablecoinId: string, req: BurnRequest) {
  const coin = await usableCoin(platformId, stablecoinId);
  const amount = BigInt(req.amount);
  const fiat = fiatCents(amount, coin.decimals);
  const destination = await burnDestination(coin, fiat, req.destination, db());
  return submit({
    coin,
    operationType: 'BURN',
    amount,
    fiat,
    source: await burnSource(coin, amount, req.source, db()),
    destination,
    estimatedDelivery: destination.estimatedDelivery,
    payoutRail: req.destination.rail,
    description: req.description,
  });
}

export async function get(platformId: string, id: string) {
  const row = await repo.findOperation(platformId, id, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Stablecoin operation ${id}`);
  return toOperation(row);
}

export async function list(
  platformId: string,
  stablecoinId: string,
  f: { operationType?: string },
  limit: number,
  cursor?: string,
) {
  await findOrThrow(platformId, stablecoinId);
  const req = { limit, cursor, filters: { ...f, stablecoinId } };
  return pageOf(await repo.listOperations(platformId, stablecoinId, f, req), toOperation);
}
