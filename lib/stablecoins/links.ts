import { newId } from '../core/ids';
import { now } from '../core/clock';
import { isSandbox } from '../core/mode';
import { transaction, db } from '../core/db';
import { effect } from '../core/idempotency';
import { DomainError, conflict, fieldError, notFound } from '../core/errors';
import { seal, unseal } from '../core/crypto/vault';
import { pageOf } from '../core/list';
import * as repo from './repository';
import { toProviderAccount } from './presenter';
import {
  stablecoinProvider,
  type CredentialRefusal,
  type ProviderContext,
  type ProviderCredentials,
  type ProviderEnvironment,
} from './provider';
import type { ProviderAccountLink } from './schema';

// Provider account links: API credentials the provider verified, sealed with the service vault
// (bound to the link's id) and never returned. A link is ACTIVE until the provider refuses its
// credentials at a later use (INVALID or REVOKED); linking the same provider account again with
// fresh credentials makes it ACTIVE again.
const PROVIDER = 'BRALE';

/** The provider environment follows the platform mode (reference: StablecoinProviderEnvironment). */
export const environment = (): ProviderEnvironment => (isSandbox() ? 'SANDBOX' : 'PRODUCTION');

export const sealPurpose = (linkId: string) => `stablecoin-provider-credentials:${linkId}`;

export function refusalError(refusal: CredentialRefusal, message: string): DomainError {
  return new DomainError(
    refusal === 'REVOKED' ? 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED' : 'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
    message,
  );
}

export async function link(platformId: string, req: ProviderAccountLink) {
  const env = environment();
  const credentials: ProviderCredentials = { apiClientId: req.apiClientId, apiClientSecret: req.apiClientSecret };
  // Asked before any transaction opens: the provider is a network call away.
  const check = await stablecoinProvider.get().verifyCredentials(env, credentials, 'link', req.providerAccountId);
  if (!check.ok) throw refusalError(check.refusal, check.message);
  let providerAccountId = req.providerAccountId;
  if (!providerAccountId) {
    if (check.providerAccountIds.length !== 1)
      throw fieldError(
        'providerAccountId',
        `These credentials reach ${check.providerAccountIds.length} provider accounts: name the one to link in providerAccountId`,
      );
    providerAccountId = check.providerAccountIds[0];
  } else if (!check.providerAccountIds.includes(providerAccountId)) {
    throw new DomainError(
      'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
      `These credentials do not reach provider account ${providerAccountId}`,
    );
  }
  const accountId = providerAccountId;
  return effect(async (tx) => {
    const at = now();
    const existing = await repo.findLinkByAccount(platformId, PROVIDER, env, accountId, tx);
    if (existing) {
      if (existing.status === 'ACTIVE')
        throw conflict(`Provider account ${accountId} is already linked`, { stablecoinProviderAccountId: existing.id });
      const relinked = await repo.moveLink(
        existing.id,
        'relink',
        {
          sealedCredentials: seal(JSON.stringify(credentials), sealPurpose(existing.id)),
          lastVerifiedAt: at,
          updatedAt: at,
        },
        tx,
      );
      if (!relinked) throw conflict(`Provider account ${accountId} was linked again meanwhile`);
      return toProviderAccount(relinked);
    }
    const id = newId('StablecoinProviderAccount');
    const row = await repo.insertLink(
      {
        id,
        platformId,
        provider: PROVIDER,
        providerAccountId: accountId,
        providerEnvironment: env,
        status: 'ACTIVE',
        sealedCredentials: seal(JSON.stringify(credentials), sealPurpose(id)),
        lastVerifiedAt: at,
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    return toProviderAccount(row);
  });
}

export async function get(platformId: string, id: string) {
  const row = await repo.findLink(platformId, id, db());
  if (!row) throw notFound('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', `Stablecoin provider account ${id}`);
  return toProviderAccount(row);
}

export async function list(
  platformId: string,
  f: { provider?: string; status?: string },
  limit: number,
  cursor?: string,
) {
  return pageOf(await repo.listLinks(platformId, f, { limit, cursor, filters: { ...f } }), toProviderAccount);
}

/** The link an operation runs on: named, or the platform's one active link for this environment. */
async function chooseLink(platformId: string, requested: string | undefined): Promise<repo.LinkRow> {
  const env = environment();
  if (requested) {
    const row = await repo.findLink(platformId, requested, db());
    if (!row) throw notFound('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', `Stablecoin provider account ${requested}`);
    if (row.providerEnvironment !== env)
      throw new DomainError(
        'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
        `Stablecoin provider account ${requested} is linked for ${row.providerEnvironment}, not ${env}`,
      );
    return row;
  }
  const rows = await repo.linksFor(platformId, PROVIDER, env, db());
  const active = rows.filter((r) => r.status === 'ACTIVE');
  if (active.length > 1)
    throw new DomainError(
      'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
      `${active.length} provider account links are active: pass stablecoinProviderAccountId to choose one`,
      { stablecoinProviderAccountIds: active.map((r) => r.id) },
    );
  if (active.length === 1) return active[0];
  if (!rows.length)
    throw new DomainError(
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
      `No ${PROVIDER} provider account is linked for ${env}: link one first`,
    );
  return rows[0];
}

/**
 * A link ready for the provider: ACTIVE, and its credentials still accepted (checked now). A
 * refusal is recorded on the link (it moves to INVALID or REVOKED) before the error is raised.
 */
export async function usableLink(
  platformId: string,
  requested?: string,
): Promise<{ link: repo.LinkRow; ctx: ProviderContext }> {
  const row = await chooseLink(platformId, requested);
  if (row.status !== 'ACTIVE')
    throw refusalError(
      row.status === 'REVOKED' ? 'REVOKED' : 'INVALID',
      `Stablecoin provider account ${row.id} is ${row.status}: link it again with valid credentials`,
    );
  const ctx = contextOf(row);
  const check = await stablecoinProvider
    .get()
    .verifyCredentials(ctx.environment, ctx.credentials, 'use', row.providerAccountId);
  const at = now();
  if (!check.ok) {
    await transaction((tx) =>
      repo.moveLink(row.id, check.refusal === 'REVOKED' ? 'revoke' : 'invalidate', { updatedAt: at }, tx),
    );
    throw refusalError(
      check.refusal,
      `${check.message}; stablecoin provider account ${row.id} is now ${check.refusal}`,
    );
  }
  await transaction((tx) => repo.touchLink(row.id, { lastVerifiedAt: at }, tx));
  return { link: row, ctx };
}

/** The provider context of a link (its credentials unsealed), for calls on existing operations. */
export function contextOf(row: repo.LinkRow): ProviderContext {
  const credentials = JSON.parse(
    Buffer.from(unseal(row.sealedCredentials, sealPurpose(row.id))).toString('utf8'),
  ) as ProviderCredentials;
  return {
    environment: row.providerEnvironment as ProviderEnvironment,
    credentials,
    providerAccountId: row.providerAccountId,
  };
}
