import type { SignedRequest } from '../wallet-auth/signed-retry';
import { randomBytes } from 'node:crypto';
import { newId } from '../core/ids';
import { now } from '../core/clock';
import { effectWrite } from '../core/idempotency';
import { port } from '../core/ports';
import { transaction, isUniqueViolation, type Tx, type Prisma } from '../core/db';
import { DomainError, conflict, fieldError, notFound } from '../core/errors';
import { pageOf } from '../core/list';
import { eventWrites, recordEvent } from '../events/outbox';
import * as platforms from '../platform/repository';
import { settingsOf } from '../platform/settings';
import {
  customerAccountWrites,
  openCustomerAccounts,
  customerAccounts,
  present as presentAccounts,
} from '../accounts/service';
import * as accountsRepo from '../accounts/repository';
import type { Challenge } from '../wallet-auth/signed-retry';
import { ownersByCustomer } from './beneficial-owners/presenter';
import { initialKycStatus, statusEvent } from './kyc';
import { requiresContactVerification } from './regions';
import * as repo from './repository';
import { publicBaseUrl } from '../core/mode';
import type { CustomerCreate, CustomerUpdate } from './schema';

// Customers: individuals and businesses of a platform, with their profile, UMA address and the
// internal accounts opened for them.
export const END_USER_TERMS_VERSIONS = ['V1'];

export function endUserTerms() {
  const base = publicBaseUrl();
  return { version: END_USER_TERMS_VERSIONS[END_USER_TERMS_VERSIONS.length - 1], url: `${base}/legal/end-user-terms` };
}

type Profile = Record<string, unknown>;

export function toCustomer(row: repo.CustomerRow, owners?: unknown[]) {
  const profile = row.profile as Profile;
  const base = {
    id: row.id,
    platformCustomerId: row.platformCustomerId,
    customerType: row.customerType as 'INDIVIDUAL' | 'BUSINESS',
    umaAddress: row.umaAddress,
    ...(row.region ? { region: row.region } : {}),
    currencies: row.currencies,
    ...(row.email ? { email: row.email } : {}),
    ...(row.phoneNumber ? { phoneNumber: row.phoneNumber } : {}),
    ...(row.endUserTermsConsent ? { endUserTermsConsent: row.endUserTermsConsent as Profile } : {}),
    ...(row.contactVerification && Object.keys(row.contactVerification as Profile).length
      ? { contactVerification: row.contactVerification as Profile }
      : {}),
    isDeleted: row.deletedAt !== null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  if (row.customerType === 'INDIVIDUAL') {
    return {
      ...base,
      kycStatus: row.kycStatus ?? 'UNVERIFIED',
      ...(row.fullName ? { fullName: row.fullName } : {}),
      ...profile,
    };
  }
  return { ...base, kybStatus: row.kybStatus ?? 'UNVERIFIED', ...profile, beneficialOwners: owners ?? [] };
}
export type Customer = ReturnType<typeof toCustomer>;

/** Customers as the API shows them; pass `tx` when called inside a transaction. */
export async function present(platformId: string, rows: repo.CustomerRow[], tx?: Tx): Promise<Customer[]> {
  const businessIds = rows.filter((r) => r.customerType === 'BUSINESS').map((r) => r.id);
  const owners = businessIds.length
    ? await ownersByCustomer(platformId, businessIds, tx)
    : new Map<string, unknown[]>();
  return rows.map((r) => toCustomer(r, owners.get(r.id)));
}

/** Request fields stored in their own columns (or never stored), so not in the profile. */
const NOT_PROFILE = new Set([
  'customerType',
  'currencies',
  'email',
  'phoneNumber',
  'umaAddress',
  'endUserTermsConsent',
  'platformCustomerId',
  'region',
  'kycStatus',
  'kybStatus',
  'fullName',
  'identifier',
]);

function profileOf(input: CustomerCreate | CustomerUpdate): Profile {
  return Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && !NOT_PROFILE.has(k)));
}

const UMA_USER = /^\$[a-z0-9][a-z0-9._-]{0,63}$/i;

/** `$user@domain` on the platform's UMA domain; a bare `$user` or `user` is completed with it. */
function normalizeUma(input: string, domain: string): string {
  const at = input.lastIndexOf('@');
  let user = at >= 0 ? input.slice(0, at) : input;
  const host = at >= 0 ? input.slice(at + 1).toLowerCase() : domain;
  if (!user.startsWith('$')) user = `$${user}`;
  if (!UMA_USER.test(user))
    throw fieldError('umaAddress', 'umaAddress must look like $name@domain (letters, digits, dot, dash, underscore)', {
      pattern: '^\\$[a-z0-9][a-z0-9._-]{0,63}@domain$',
    });
  if (host !== domain) throw fieldError('umaAddress', `umaAddress must be on this platform's UMA domain ${domain}`);
  return `${user.toLowerCase()}@${host}`;
}

function generatedUma(name: string | undefined, domain: string): string {
  const slug =
    (name ?? 'user')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '.')
      .replace(/^\.+|\.+$/g, '')
      .slice(0, 40) || 'user';
  return `$${slug}.${randomBytes(4).toString('hex')}@${domain}`;
}

function checkTerms(consent: { termsVersion: string } | undefined) {
  if (consent && !END_USER_TERMS_VERSIONS.includes(consent.termsVersion)) {
    throw new DomainError(
      'END_USER_TERMS_VERSION_NOT_FOUND',
      `End User Terms version ${consent.termsVersion} is not supported; current is ${endUserTerms().version}`,
      {
        errors: [
          {
            field: 'endUserTermsConsent.termsVersion',
            message: `must be one of ${END_USER_TERMS_VERSIONS.join(', ')}`,
          },
        ],
      },
    );
  }
}

async function checkCurrencies(platformId: string, currencies: string[] | undefined, tx?: Tx): Promise<string[]> {
  const supported = (await settingsOf(platformId, tx)).currencyCodes;
  if (!currencies) return supported;
  for (const [i, c] of currencies.entries()) {
    if (!supported.includes(c)) {
      throw new DomainError(
        'INVALID_CURRENCY',
        `Currency ${c} is not supported by this platform (supported: ${supported.join(', ')})`,
        {
          errors: [{ field: `currencies[${i}]`, message: `must be one of ${supported.join(', ')}` }],
        },
      );
    }
  }
  return [...new Set(currencies)];
}

async function explainUniqueViolation(
  platformId: string,
  platformCustomerId: string | undefined,
  umaAddress: string,
  exceptId: string | null,
): Promise<DomainError> {
  if (platformCustomerId && (await repo.findActiveByPlatformCustomerId(platformId, platformCustomerId))) {
    return conflict(`An active customer with platformCustomerId ${platformCustomerId} already exists`);
  }
  if (await repo.umaAddressTaken(umaAddress, exceptId))
    return new DomainError('UMA_ADDRESS_EXISTS', `UMA address ${umaAddress} is already taken`);
  return conflict('The customer conflicts with an existing customer');
}

export async function create(platformId: string, input: CustomerCreate): Promise<Customer> {
  checkTerms(input.endUserTermsConsent);
  const platform = await platforms.findById(platformId);
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
  const currencies = await checkCurrencies(platformId, input.currencies);
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
  const row = await repo.findById(platformId, id);
  if (!row) throw notFound('USER_NOT_FOUND', `Customer ${id}`);
  return (await present(platformId, [row]))[0];
}

export async function list(platformId: string, filter: repo.CustomerFilter, limit: number, cursor?: string) {
  const listed = await repo.list(platformId, filter, { limit, cursor, filters: { ...filter } });
  const shown = await present(platformId, listed.rows.slice(0, limit));
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
      const at = now();
      const email = input.email ?? row.email;
      const phone = input.phoneNumber ?? row.phoneNumber;
      const cv = (row.contactVerification ?? {}) as Record<string, string>;
      const contactVerification = requiresContactVerification(row.region)
        ? {
            ...(email
              ? { email: input.email !== undefined && input.email !== row.email ? 'PENDING' : (cv.email ?? 'PENDING') }
              : {}),
            ...(phone
              ? {
                  phone:
                    input.phoneNumber !== undefined && input.phoneNumber !== row.phoneNumber
                      ? 'PENDING'
                      : (cv.phone ?? 'PENDING'),
                }
              : {}),
          }
        : undefined;
      const updated = await repo.update(
        id,
        {
          umaAddress,
          email,
          phoneNumber: phone,
          currencies,
          profile: profile as Prisma.InputJsonValue,
          ...(input.customerType === 'INDIVIDUAL'
            ? { fullName: input.fullName ?? row.fullName, identifier: input.identifier ?? row.identifier }
            : { registrationNumber: input.businessInfo?.registrationNumber ?? row.registrationNumber }),
          ...(input.endUserTermsConsent ? { endUserTermsConsent: input.endUserTermsConsent } : {}),
          ...(contactVerification ? { contactVerification } : {}),
          updatedAt: at,
        },
        tx,
      );
      // Newly added currencies get their holding accounts.
      const have = new Set(
        (await customerAccounts(platformId, id, tx)).filter((a) => a.type !== 'EMBEDDED_WALLET').map((a) => a.currency),
      );
      const missing = currencies.filter((c) => !have.has(c));
      if (missing.length) await openCustomerAccounts(platformId, id, missing, null, tx);
      return (await present(platformId, [updated], tx))[0];
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw await explainUniqueViolation(platformId, undefined, umaAddress, id);
    throw err;
  }
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
