import type { Tx } from '../../core/db';
import * as repo from './repository';
import type { PersonalInfo } from './schema';

// Beneficial owners as the API shows them, on their own and inside business customers.
export function toOwner(row: repo.OwnerRow) {
  return {
    id: row.id,
    customerId: row.customerId,
    roles: row.roles,
    ownershipPercentage: row.ownershipPercentage,
    personalInfo: row.personalInfo as PersonalInfo,
    kycStatus: row.kycStatus,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type BeneficialOwner = ReturnType<typeof toOwner>;

/** Owners of each business, by customer id; pass `tx` when called inside a transaction. */
export async function ownersByCustomer(
  platformId: string,
  customerIds: string[],
  tx: Tx,
): Promise<Map<string, BeneficialOwner[]>> {
  const out = new Map<string, BeneficialOwner[]>();
  for (const row of await repo.ofCustomers(platformId, customerIds, tx)) {
    const list = out.get(row.customerId) ?? [];
    list.push(toOwner(row));
    out.set(row.customerId, list);
  }
  return out;
}
