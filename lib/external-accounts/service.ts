import { effect } from '../core/idempotency';
import { newId } from '../core/ids';
import { now } from '../core/clock';
import { db, inTransaction, isUniqueViolation, transaction, type Prisma, type Tx } from '../core/db';
import { DomainError, conflict, fieldError, notFound } from '../core/errors';
import { pageOf } from '../core/list';
import * as customers from '../customers/repository';
import { isScaRegion } from '../customers/regions';
import { beneficiaryName, type Beneficiary } from './beneficiary';
import { accountRail } from './rails';
import {
  identityKey,
  isSelfCustodyWallet,
  isWallet,
  paymentRails,
  primaryIdentifier,
  bankVariant,
  type AccountInfo,
} from './rules';
import type { ExternalAccountCreate } from './schema';
import { present, transition, type ExternalAccount } from './status';
import * as repo from './repository';

// External accounts of customers and of the platform. The functions take the owner explicitly
// and never look at who is calling, so platform routes and agent routes share them.
export type { ExternalAccount } from './status';
export type Owner = repo.Owner;

const notFoundError = (id: string) => notFound('REFERENCE_NOT_FOUND', `External account ${id}`);

function customerName(c: customers.CustomerRow): string | null {
  if (c.customerType === 'INDIVIDUAL') return c.fullName;
  return (
    ((c.profile as { businessInfo?: { legalName?: string } }).businessInfo?.legalName as string | undefined) ?? null
  );
}

/**
 * Whether the owner must prove control of the wallet before unrestricted use: a FIRST_PARTY
 * self-custody wallet of a customer under the Travel Rule (SCA/EEA region), or the platform's own.
 */
function needsOwnershipProof(
  info: AccountInfo,
  ownership: string | undefined,
  customer: customers.CustomerRow | null,
): boolean {
  return isSelfCustodyWallet(info) && ownership === 'FIRST_PARTY' && (customer ? isScaRegion(customer.region) : true);
}

async function liveCustomer(platformId: string, customerId: string, tx: Tx) {
  const c = inTransaction(tx)
    ? await customers.lock(platformId, customerId, tx)
    : await customers.findById(platformId, customerId, tx);
  if (!c || c.deletedAt) throw fieldError('customerId', `Customer ${customerId} not found (or deleted)`);
  return c;
}

export async function create(platformId: string, input: ExternalAccountCreate): Promise<ExternalAccount> {
  const info = input.accountInfo as AccountInfo;
  const customer = input.customerId ? await liveCustomer(platformId, input.customerId, db()) : null;
  if (!customer && input.defaultUmaDepositAccount) {
    throw fieldError(
      'defaultUmaDepositAccount',
      "requires customerId: only a customer's account can receive that customer's UMA payments",
    );
  }
  const travelRule = customer ? isScaRegion(customer.region) : false;
  if (travelRule && isSelfCustodyWallet(info) && !input.ownershipType) {
    throw fieldError(
      'ownershipType',
      `is required for a self-custody wallet of a customer in ${customer!.region} (Travel Rule)`,
      { enum: ['FIRST_PARTY', 'THIRD_PARTY'] },
    );
  }
  if (travelRule && isWallet(info.accountType) && input.ownershipType === 'THIRD_PARTY' && !info.beneficiary) {
    throw fieldError(
      'accountInfo.beneficiary',
      `is required for a THIRD_PARTY wallet of a customer in ${customer!.region} (Travel Rule counterparty data)`,
    );
  }

  const bank = bankVariant(info.accountType);
  const stored: AccountInfo = bank ? { ...info, paymentRails: paymentRails(info) } : info;
  const identifier = primaryIdentifier(info);
  const key = identityKey(info);
  // Refused before asking the rail; checked again under the lock below.
  const known = await repo.findDuplicate(platformId, customer?.id ?? null, input.currency, key, db());
  if (known) throw duplicateError(known.id);
  const holder =
    beneficiaryName(info.beneficiary as Beneficiary | undefined) ??
    (customer && input.ownershipType !== 'THIRD_PARTY' ? customerName(customer) : null);
  // The rail is asked before the transaction: nothing is written for an account it refuses.
  const check = await accountRail.get().checkAccount({
    accountType: info.accountType,
    currency: input.currency,
    primaryIdentifier: identifier,
    beneficiaryName: holder,
  });
  if (!check.valid)
    throw new DomainError('INVALID_BANK_ACCOUNT', `The account ${identifier} cannot be used: ${check.reason}`);

  try {
    return await effect(async (tx) => {
      // Locking the customer serializes its account creations (duplicates, default replacement).
      if (customer) await liveCustomer(platformId, customer.id, tx);
      const duplicate = await repo.findDuplicate(platformId, customer?.id ?? null, input.currency, key, tx);
      if (duplicate) throw duplicateError(duplicate.id);
      const at = now();
      if (customer && input.defaultUmaDepositAccount) await repo.clearDefault(platformId, customer.id, at, tx);
      const row = await repo.insert(
        {
          id: newId('ExternalAccount'),
          platformId,
          customerId: customer?.id ?? null,
          status: needsOwnershipProof(info, input.ownershipType, customer)
            ? 'PENDING_OWNERSHIP_VERIFICATION'
            : 'ACTIVE',
          currency: input.currency,
          accountType: info.accountType,
          primaryIdentifier: identifier,
          identityKey: key,
          platformAccountId: input.platformAccountId ?? null,
          ownershipType: input.ownershipType ?? null,
          defaultUmaDepositAccount: !!(customer && input.defaultUmaDepositAccount),
          beneficiaryVerificationStatus: check.beneficiaryVerificationStatus,
          beneficiaryVerifiedName: check.verifiedName ?? null,
          accountInfo: stored as Prisma.InputJsonValue,
          createdAt: at,
          updatedAt: at,
        },
        tx,
      );
      return present(row);
    });
  } catch (err) {
    // A concurrent create of the same account (platform accounts take no customer lock).
    if (isUniqueViolation(err)) throw duplicateError();
    throw err;
  }
}

function duplicateError(existingId?: string) {
  return conflict(
    'An external account with the same identifier and currency already exists for this owner',
    existingId ? { externalAccountId: existingId } : undefined,
  );
}

export async function get(platformId: string, id: string, owner: Owner): Promise<ExternalAccount> {
  const row = await repo.findLive(platformId, id, owner, db());
  if (!row) throw notFoundError(id);
  return present(row);
}

/**
 * The owner's account even when deleted (then INACTIVE): a payment to it can be refused as closed
 * rather than as an account the owner never had.
 */
export async function getOwned(platformId: string, id: string, owner: Owner): Promise<ExternalAccount> {
  const row = await repo.findOwned(platformId, id, owner, db());
  if (!row) throw notFoundError(id);
  return present(row);
}

export async function list(platformId: string, filter: repo.ExternalAccountFilter, limit: number, cursor?: string) {
  const listed = await repo.list(platformId, filter, { limit, cursor, filters: { ...filter } });
  return pageOf(listed, present);
}

/** Soft delete: the account turns INACTIVE and disappears; a trusted beneficiary must be untrusted first. */
export async function remove(platformId: string, id: string, owner: Owner): Promise<void> {
  await transaction(async (tx) => {
    const row = await repo.lockLive(platformId, id, owner, tx);
    if (!row) throw notFoundError(id);
    if (row.trustedAt) {
      throw new DomainError(
        'BENEFICIARY_TRUSTED',
        `External account ${id} is a trusted beneficiary: untrust it first (POST /customers/external-accounts/${id}/untrust and its /confirm), then delete`,
      );
    }
    const at = now();
    await repo.abandonPendingOwnership(id, at, tx);
    await repo.abandonPendingTrust(id, at, tx);
    await transition(
      tx,
      platformId,
      id,
      ['PENDING', 'ACTIVE', 'PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED', 'UNDER_REVIEW'],
      'INACTIVE',
      at,
    );
    await repo.update(id, { deletedAt: at, defaultUmaDepositAccount: false, updatedAt: at }, tx);
  });
}

/** What money movement needs to know about a destination or source account. */
export interface PaymentAccount {
  id: string;
  customerId: string | null;
  currency: string;
  accountType: string;
  primaryIdentifier: string;
  status: string;
  accountInfo: AccountInfo;
  beneficiary: Beneficiary | null;
}

function toPayment(row: repo.ExternalAccountRow): PaymentAccount {
  const accountInfo = row.accountInfo as AccountInfo;
  return {
    id: row.id,
    customerId: row.customerId,
    currency: row.currency,
    accountType: row.accountType,
    primaryIdentifier: row.primaryIdentifier,
    status: row.status,
    accountInfo,
    beneficiary: (accountInfo.beneficiary as Beneficiary | undefined) ?? null,
  };
}

/** A live external account of the platform (customer-owned or platform-owned), or null. */
export async function getForPayment(platformId: string, id: string, tx: Tx): Promise<PaymentAccount | null> {
  const row = await repo.findLiveAny(platformId, id, tx);
  return row ? toPayment(row) : null;
}

/** The customer's default UMA deposit account, or null (incoming UMA payments then go to the primary internal account). */
export async function defaultUmaDepositAccount(
  platformId: string,
  customerId: string,
  tx: Tx,
): Promise<PaymentAccount | null> {
  const row = await repo.findDefault(platformId, customerId, tx);
  return row ? toPayment(row) : null;
}
