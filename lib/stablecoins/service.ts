import { newId } from '../core/ids';
import { addSeconds, now } from '../core/clock';
import { transaction, db } from '../core/db';
import { effect } from '../core/idempotency';
import { conflict, fieldError, notFound } from '../core/errors';
import { pageOf } from '../core/list';
import { enqueue, type JobHandler } from '../jobs/queue';
import * as repo from './repository';
import { toStablecoin } from './presenter';
import { contextOf, usableLink } from './links';
import { stablecoinProvider } from './provider';
import type { StablecoinRegister } from './schema';

// Registered stablecoins: a provider's existing token linked to Grid through one provider
// account link. Registration creates nothing at the provider; it records what the provider says
// about the token. A token still under the provider's review is looked at again on a timer
// (job stablecoin.review) until it is provisioned or rejected.
export const REVIEW_JOB = 'stablecoin.review';
const REVIEW_EVERY_SECONDS = 60;

export async function register(platformId: string, req: StablecoinRegister) {
  const { link, ctx } = await usableLink(platformId, req.stablecoinProviderAccountId);
  const token = await stablecoinProvider
    .get()
    .lookupToken(ctx, req.providerTokenIdentifier, req.networkTokenIdentifier);
  if (!token)
    throw fieldError(
      'providerTokenIdentifier',
      `The provider has no token ${req.providerTokenIdentifier} on this account`,
    );
  return effect(async (tx) => {
    const at = now();
    const duplicate = await tx.stablecoin.findFirst({
      where: {
        platformId,
        provider: link.provider,
        providerEnvironment: link.providerEnvironment,
        providerTokenIdentifier: req.providerTokenIdentifier,
      },
    });
    if (duplicate)
      throw conflict(`Token ${req.providerTokenIdentifier} is already registered`, { stablecoinId: duplicate.id });
    const row = await repo.insertStablecoin(
      {
        id: newId('Stablecoin'),
        platformId,
        stablecoinProviderAccountId: link.id,
        provider: link.provider,
        providerEnvironment: link.providerEnvironment,
        providerTokenIdentifier: req.providerTokenIdentifier,
        networkTokenIdentifier: req.networkTokenIdentifier,
        network: req.network,
        name: token.name,
        symbol: token.symbol,
        baseCurrency: token.baseCurrency,
        decimals: token.decimals,
        issuanceStatus: token.issuanceStatus,
        // Enabling a stablecoin for ordinary Grid operations is a separate, later step.
        gridOperationsStatus: 'NOT_ENABLED',
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    if (row.issuanceStatus === 'PENDING_REVIEW' || row.issuanceStatus === 'PROVISIONING')
      await enqueue(tx, {
        platformId,
        kind: REVIEW_JOB,
        payload: { stablecoinId: row.id },
        runAt: addSeconds(at, REVIEW_EVERY_SECONDS),
      });
    return toStablecoin(row);
  });
}

export async function findOrThrow(platformId: string, id: string) {
  const row = await repo.findStablecoin(platformId, id, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Stablecoin ${id}`);
  return row;
}

export async function get(platformId: string, id: string) {
  return toStablecoin(await findOrThrow(platformId, id));
}

export async function list(
  platformId: string,
  f: { issuanceStatus?: string; gridOperationsStatus?: string; provider?: string },
  limit: number,
  cursor?: string,
) {
  return pageOf(await repo.listStablecoins(platformId, f, { limit, cursor, filters: { ...f } }), toStablecoin);
}

/** Job stablecoin.review: asks the provider where its review of the token stands. */
export const reviewJob: JobHandler = async (payload, job) => {
  const { stablecoinId } = payload as { stablecoinId: string };
  const coin = await repo.findStablecoin(job.platformId, stablecoinId, db());
  if (!coin || (coin.issuanceStatus !== 'PENDING_REVIEW' && coin.issuanceStatus !== 'PROVISIONING')) return;
  const link = await repo.findLink(job.platformId, coin.stablecoinProviderAccountId, db());
  if (!link) return;
  const status = await stablecoinProvider
    .get()
    .tokenStatus(contextOf(link), coin.providerTokenIdentifier, coin.createdAt);
  await transaction(async (tx) => {
    const at = now();
    if (status === 'PROVISIONED') await repo.moveIssuance(coin.id, 'provisioned', at, tx);
    else if (status === 'REJECTED') await repo.moveIssuance(coin.id, 'rejected', at, tx);
    else if (status === 'FAILED') await repo.moveIssuance(coin.id, 'failed', at, tx);
    else
      await enqueue(tx, {
        platformId: job.platformId,
        kind: REVIEW_JOB,
        payload: { stablecoinId },
        runAt: addSeconds(at, REVIEW_EVERY_SECONDS),
      });
  });
};
