import type { Tx } from '../core/db';
import { conflict, notFound } from '../core/errors';
import * as customers from '../customers/repository';
import { isScaRegion } from '../customers/regions';

// Who Strong Customer Authentication applies to: live customers of the platform whose region is
// an SCA region (lib/customers/regions.ts, the CORRIDOR_SCA_REGIONS setting). Every SCA operation
// answers 404 for anyone else's or an unknown customer, and 409 for customers outside those regions.
export type ScaCustomer = customers.CustomerRow;

export function scaApplies(customer: { region: string | null }): boolean {
  return isScaRegion(customer.region);
}

export function checkScaCustomer(row: ScaCustomer | null, customerId: string): ScaCustomer {
  if (!row || row.deletedAt) throw notFound('USER_NOT_FOUND', `Customer ${customerId}`);
  if (!scaApplies(row)) {
    throw conflict(
      `Strong Customer Authentication is not required for customer ${customerId} (region ${row.region ?? 'not set'}); SCA endpoints apply only to customers in SCA regions`,
    );
  }
  return row;
}

export async function scaCustomer(platformId: string, customerId: string, tx: Tx): Promise<ScaCustomer> {
  return checkScaCustomer(await customers.findById(platformId, customerId, tx), customerId);
}

/** The customer row locked for the transaction (serializes enrollments, logins and resets of one customer). */
export async function lockScaCustomer(platformId: string, customerId: string, tx: Tx): Promise<ScaCustomer> {
  return checkScaCustomer(await customers.lock(platformId, customerId, tx), customerId);
}

/** SMS_OTP is implicit: available once the customer's phone number is on file and verified. */
export function smsAvailable(row: ScaCustomer): boolean {
  const cv = (row.contactVerification ?? {}) as Record<string, string>;
  return !!row.phoneNumber && cv.phone === 'VERIFIED';
}
