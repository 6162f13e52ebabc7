import { z } from 'zod';
import { address, countryCode, email, isoDate, phoneNumber } from '../core/fields';

// Beneficiaries: who owns an external account (reference: <Ccy>Beneficiary, BusinessBeneficiary,
// WalletIndividualBeneficiary). The specification makes `address` required for every individual
// bank-account beneficiary (the reference requires it only for AED and JMD); it wins. Fields the
// reference leaves as plain strings but the specification names as a date or a country code are
// validated as such.
const name = z.string().trim().min(1).max(255);

export const individualFields = {
  beneficiaryType: z.literal('INDIVIDUAL'),
  fullName: name,
  birthDate: isoDate.optional(),
  nationality: countryCode.optional(),
  email: email.max(254).optional(),
  phoneNumber: phoneNumber.optional(),
  countryOfResidence: countryCode.optional(),
  address,
};
export type IndividualOverrides = Partial<Record<string, z.ZodType>>;

export const businessBeneficiary = z.object({
  beneficiaryType: z.literal('BUSINESS'),
  legalName: name,
  registrationNumber: z.string().trim().min(1).max(64).optional(),
  taxId: z.string().trim().min(1).max(64).optional(),
  email: email.max(254).optional(),
  phoneNumber: phoneNumber.optional(),
  countryOfResidence: countryCode.optional(),
  address: address.optional(),
});

/** A bank variant's beneficiary: its individual kind (with per-currency changes) or a business. */
export function bankBeneficiary(overrides: IndividualOverrides = {}) {
  return z.discriminatedUnion('beneficiaryType', [
    z.object({ ...individualFields, ...overrides }),
    businessBeneficiary,
  ]);
}

export const walletBeneficiary = z.discriminatedUnion('beneficiaryType', [
  z.object({ beneficiaryType: z.literal('INDIVIDUAL'), fullName: name, countryOfResidence: countryCode }),
  businessBeneficiary,
]);

export interface Beneficiary {
  beneficiaryType: 'INDIVIDUAL' | 'BUSINESS';
  fullName?: string;
  legalName?: string;
  [k: string]: unknown;
}

export function beneficiaryName(b: Beneficiary | null | undefined): string | null {
  if (!b) return null;
  return (b.beneficiaryType === 'BUSINESS' ? b.legalName : b.fullName) ?? null;
}
