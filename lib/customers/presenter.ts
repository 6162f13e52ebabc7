import type { Tx } from '../core/db';
import { ownersByCustomer } from './beneficial-owners/presenter';
import type * as repo from './repository';

// A customer as the API shows it: its columns and the free-form profile (the request's other
// fields), with a business's beneficial owners.
export type Profile = Record<string, unknown>;

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
export async function present(platformId: string, rows: repo.CustomerRow[], tx: Tx): Promise<Customer[]> {
  const businessIds = rows.filter((r) => r.customerType === 'BUSINESS').map((r) => r.id);
  const owners = businessIds.length
    ? await ownersByCustomer(platformId, businessIds, tx)
    : new Map<string, unknown[]>();
  return rows.map((r) => toCustomer(r, owners.get(r.id)));
}
