import type { SignedRequest } from '../wallet-auth/signed-retry';
import { newId } from '../core/ids';
import { now } from '../core/clock';
import { effectWrite } from '../core/idempotency';
import { port } from '../core/ports';
import { transaction, isUniqueViolation, type Tx, type Prisma, db } from '../core/db';
import { DomainError, fieldError, notFound } from '../core/errors';
import { pageOf } from '../core/list';
import { eventWrites, recordEvent } from '../events/outbox';
import * as platforms from '../platform/repository';
import {
  customerAccountWrites,
  openCustomerAccounts,
  customerAccounts,
  present as presentAccounts,
} from '../accounts/service';
import * as accountsRepo from '../accounts/repository';
import type { Challenge } from '../wallet-auth/signed-retry';
import { initialKycStatus, statusEvent } from './kyc';
import { present, toCustomer, type Customer, type Profile } from './presenter';
import { checkCurrencies, checkTerms, explainUniqueViolation, generatedUma, normalizeUma, profileOf } from './profile';
import { requiresContactVerification } from './regions';
import * as repo from './repository';
import type { CustomerCreate, CustomerUpdate } from './schema';

// Customers: individuals and businesses of a platform, with their profile, UMA address and the
// internal accounts opened for them.
export async function create(platformId: string, input: CustomerCreate): Promise<Customer> {
  checkTerms(input.endUserTermsConsent);
  const platform = await platforms.findById(platformId, db());
  if (!platform) throw notFound('REFERENCE_NOT_FOUND', 'Platform');
  const requested = input.umaAddress ? normalizeUma(input.umaAddress, platform.umaDomain) : null;
  const name = input.customerType === 'INDIVIDUAL' ? input.fullName : input.businessInfo.legalName;
  // A generated address that happens to be taken is the service's problem, not the caller's:
  // draw another suffix rather than answer UMA_ADDRESS_EXISTS for an address nobody asked for.
  for (let attempt = 0; ; attempt++) {
    const umaAddress = requested ?? generatedUma(name, platform.umaDomain);
    try {
      return await insertCustomer(platformId, platform, input, umaAddress);
    } catch (err) {
      if (!requested && attempt < 5 && err instanceof DomainError && err.code === 'UMA_ADDRESS_EXISTS') continue;
      throw err;
    }
  }
}

async function insertCustomer(
  platformId: string,
  platform: platforms.PlatformRow,
  input: CustomerCreate,
  umaAddress: string,
): Promise<Customer> {
  const currencies = await checkCurrencies(platformId, input.currencies, db());
  const at = now();
  const id = newId('Customer');
  const individual = input.customerType === 'INDIVIDUAL' ? input : null;
  const kycStatus = individual ? initialKycStatus(individual.fullName) : null;
  const row: repo.CustomerRow = {
    id,
    platformId,
    platformCustomerId: input.platformCustomerId ?? id.slice('Customer:'.length),
    customerType: input.customerType,
    umaAddress,
    email: input.email ?? null,
    phoneNumber: input.phoneNumber ?? null,
    region: input.region ?? null,
    currencies,
    kycStatus,
    kybStatus: individual ? null : 'UNVERIFIED',
    fullName: individual?.fullName ?? null,
    registrationNumber: input.customerType === 'BUSINESS' ? (input.businessInfo.registrationNumber ?? null) : null,
    identifier: individual?.identifier ?? null,
    profile: profileOf(input) as Prisma.JsonValue,
    endUserTermsConsent: (input.endUserTermsConsent as Prisma.JsonValue) ?? null,
    contactVerification: requiresContactVerification(input.region)
      ? { ...(input.email ? { email: 'PENDING' } : {}), ...(input.phoneNumber ? { phone: 'PENDING' } : {}) }
      : null,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
  };
  const accounts = customerAccountWrites(
    platformId,
    id,
    currencies,
    platform.embeddedWalletConfig && input.email ? { email: input.email } : null,
    at,
  );
  const customer = toCustomer(row, []);
  const event = kycStatus ? statusEvent('KYC', kycStatus) : null;
  // The customer, its accounts (with their ledger buckets and a wallet's first credential) and
  // its event in one statement: all of it or nothing. No look-before-insert for a taken
  // platformCustomerId or UMA address: the unique indexes refuse the row (also under a concurrent
  // create, which a prior read would miss) and the catch says which one was taken.
  try {
    const writes = [
      ...accounts.writes,
      ...(event ? eventWrites(platformId, [{ type: event, data: customer }], at) : []),
    ];
    return await effectWrite(customer, (tx) => repo.insertWith(row, writes, tx));
  } catch (err) {
    if (isUniqueViolation(err))
      throw await explainUniqueViolation(platformId, input.platformCustomerId, umaAddress, null);
    throw err;
  }
}

export async function get(platformId: string, id: string): Promise<Customer> {
  const row = await repo.findById(platformId, id, db());
  if (!row) throw notFound('USER_NOT_FOUND', `Customer ${id}`);
  return (await present(platformId, [row], db()))[0];
}

export async function list(platformId: string, filter: repo.CustomerFilter, limit: number, cursor?: string) {
  const listed = await repo.list(platformId, filter, { limit, cursor, filters: { ...filter } });
  const shown = await present(platformId, listed.rows.slice(0, limit), db());
  const byId = new Map(shown.map((c) => [c.id, c]));
  return pageOf(listed, (r) => byId.get(r.id)!);
}

/**
 * A change of email or phone number that embedded-wallet credentials are tied to must be signed by
 * the wallet (lib/wallet-auth/contact-sync.ts): null for a plain update, a challenge to answer, or
 * the go-ahead once the credentials were updated in `tx`. Plugged in by lib/wiring.ts.
 */
export type ContactChangeGuard = (
  tx: Tx,
  opts: {
    platformId: string;
    customerId: string;
    change: {
      current: { email: string | null; phoneNumber: string | null };
      next: { email?: string; phoneNumber?: string };
    };
    request: SignedRequest;
  },
) => Promise<null | { challenge: Challenge } | { synced: number }>;
export const contactChangeGuard = port<ContactChangeGuard>('customers.contact-change-guard');

/**
 * Updates a customer. A change of email (phone number) tied to the EMAIL_OTP (SMS_OTP) credentials
 * of the customer's embedded wallets is wallet-signed (lib/wallet-auth/contact-sync.ts): the first
 * call answers with the signed-retry challenge, the signed retry updates customer and credentials
 * together. `request` is the HTTP request (its headers and exact body) for that flow.
 */
export async function update(
  platformId: string,
  id: string,
  input: CustomerUpdate,
  request: SignedRequest,
): Promise<Customer | Challenge> {
  checkTerms(input.endUserTermsConsent);
  let umaAddress = '';
  try {
    return await transaction(async (tx) => {
      const row = await repo.lock(platformId, id, tx);
      if (!row || row.deletedAt) throw notFound('USER_NOT_FOUND', `Customer ${id}`);
      if (row.customerType !== input.customerType) {
        throw fieldError('customerType', `customerType cannot change (this customer is ${row.customerType})`, {
          enum: [row.customerType],
        });
      }
      const platform = await platforms.findById(platformId, tx);
      umaAddress = input.umaAddress ? normalizeUma(input.umaAddress, platform!.umaDomain) : row.umaAddress;
      if (input.umaAddress && (await repo.umaAddressTaken(umaAddress, id, tx)))
        throw new DomainError('UMA_ADDRESS_EXISTS', `UMA address ${umaAddress} is already taken`);
      const currencies = input.currencies ? await checkCurrencies(platformId, input.currencies, tx) : row.currencies;
      const profile = { ...(row.profile as Profile), ...profileOf(input) };
      if (input.customerType === 'BUSINESS' && input.businessInfo) {
        profile.businessInfo = { ...((row.profile as Profile).businessInfo as Profile), ...input.businessInfo };
      }
      const contact = await contactChangeGuard.get()(tx, {
        platformId,
        customerId: id,
        change: {
          current: { email: row.email, phoneNumber: row.phoneNumber },
          next: { email: input.email, phoneNumber: input.phoneNumber },
        },
        request,
      });
      if (contact && 'challenge' in contact) return contact.challenge;
      const updated = await repo.update(id, columnsAfter(row, input, { umaAddress, currencies, profile }), tx);
      await openMissingAccounts(platformId, id, currencies, tx);
      return (await present(platformId, [updated], tx))[0];
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw await explainUniqueViolation(platformId, undefined, umaAddress, id);
    throw err;
  }
}

/** The customer's columns after `input`: unchanged fields keep their value. */
function columnsAfter(
  row: repo.CustomerRow,
  input: CustomerUpdate,
  next: { umaAddress: string; currencies: string[]; profile: Profile },
) {
  const email = input.email ?? row.email;
  const phoneNumber = input.phoneNumber ?? row.phoneNumber;
  const contactVerification = contactVerificationAfter(row, input, email, phoneNumber);
  return {
    umaAddress: next.umaAddress,
    email,
    phoneNumber,
    currencies: next.currencies,
    profile: next.profile as Prisma.InputJsonValue,
    ...(input.customerType === 'INDIVIDUAL'
      ? { fullName: input.fullName ?? row.fullName, identifier: input.identifier ?? row.identifier }
      : { registrationNumber: input.businessInfo?.registrationNumber ?? row.registrationNumber }),
    ...(input.endUserTermsConsent ? { endUserTermsConsent: input.endUserTermsConsent } : {}),
    ...(contactVerification ? { contactVerification } : {}),
    updatedAt: now(),
  };
}

/**
 * In a region that verifies contacts, a changed email or phone number is PENDING again; an
 * unchanged one keeps its state. Elsewhere nothing is tracked (undefined).
 */
function contactVerificationAfter(
  row: repo.CustomerRow,
  input: CustomerUpdate,
  email: string | null,
  phone: string | null,
) {
  if (!requiresContactVerification(row.region)) return undefined;
  const cv = (row.contactVerification ?? {}) as Record<string, string>;
  const changed = (next: string | undefined, current: string | null) => next !== undefined && next !== current;
  return {
    ...(email ? { email: changed(input.email, row.email) ? 'PENDING' : (cv.email ?? 'PENDING') } : {}),
    ...(phone ? { phone: changed(input.phoneNumber, row.phoneNumber) ? 'PENDING' : (cv.phone ?? 'PENDING') } : {}),
  };
}

/** Newly added currencies get their holding accounts. */
async function openMissingAccounts(platformId: string, customerId: string, currencies: string[], tx: Tx) {
  const have = new Set(
    (await customerAccounts(platformId, customerId, tx))
      .filter((a) => a.type !== 'EMBEDDED_WALLET')
      .map((a) => a.currency),
  );
  const missing = currencies.filter((c) => !have.has(c));
  if (missing.length) await openCustomerAccounts(platformId, customerId, missing, null, tx);
}

/**
 * Marks the customer deleted and closes its internal accounts. Balances stay in the ledger
 * (money is never destroyed); a deleted customer frees its platformCustomerId and UMA address.
 */
export async function remove(platformId: string, id: string): Promise<Customer> {
  return transaction(async (tx) => {
    const row = await repo.lock(platformId, id, tx);
    if (!row) throw notFound('USER_NOT_FOUND', `Customer ${id}`);
    if (row.deletedAt) throw new DomainError('CUSTOMER_DELETED', `Customer ${id} was already deleted`);
    const at = now();
    const updated = await repo.update(id, { deletedAt: at, updatedAt: at }, tx);
    for (const account of await customerAccounts(platformId, id, tx)) {
      if (await accountsRepo.setStatus(platformId, account.id, ['PENDING', 'ACTIVE', 'FROZEN'], 'CLOSED', at, tx)) {
        const [closed] = await presentAccounts([{ ...account, status: 'CLOSED', updatedAt: at }], tx);
        await recordEvent(tx, platformId, 'INTERNAL_ACCOUNT.STATUS_UPDATED', closed);
      }
    }
    return (await present(platformId, [updated], tx))[0];
  });
}

/**
 * For the console's KYC review: the kind of the customer's id number and its last four
 * characters. The API never returns the identifier (it is write-only); a reviewer matches the
 * last four against the document, so the whole number is not shown on screen either.
 */
export async function identifierForReview(
  platformId: string,
  id: string,
): Promise<{ idType: string | null; lastFour: string } | null> {
  const row = await repo.findById(platformId, id, db());
  if (!row) throw notFound('USER_NOT_FOUND', `Customer ${id}`);
  if (!row.identifier) return null;
  const idType = (row.profile as { idType?: string } | null)?.idType ?? null;
  return { idType, lastFour: row.identifier.slice(-4) };
}
