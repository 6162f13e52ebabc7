import { z } from 'zod';
import { address, countryCode, email, isoDate, isoDateTime, nonEmpty, phoneNumber } from '../../core/fields';
import { pageQuery } from '../../core/pagination';

// Beneficial owners (reference: BeneficialOwnerCreateRequest, BeneficialOwnerUpdateRequest,
// BeneficialOwner, BeneficialOwnerListResponse).
export const ownerRole = z.enum(['UBO', 'DIRECTOR', 'COMPANY_OFFICER', 'CONTROL_PERSON', 'TRUSTEE', 'GENERAL_PARTNER']);
const identificationType = z.enum(['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID']);
const kycStatus = z.enum(['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD']);

const roles = z
  .array(ownerRole)
  .min(1)
  .refine((r) => new Set(r).size === r.length, { message: 'must not repeat a role' });
const ownershipPercentage = z.number().int().min(0).max(100);

const personalInfoFields = {
  firstName: nonEmpty(),
  middleName: z.string().trim().max(255).optional(),
  lastName: nonEmpty(),
  birthDate: isoDate,
  nationality: countryCode,
  email: email.max(254).optional(),
  phoneNumber: phoneNumber.optional(),
  address,
  idType: identificationType,
  identifier: nonEmpty(64),
  countryOfIssuance: countryCode.optional(),
};

export const personalInfo = z.object(personalInfoFields);
export type PersonalInfo = z.output<typeof personalInfo>;

export const ownerCreate = z.object({
  customerId: z.string().min(1),
  roles,
  ownershipPercentage,
  personalInfo,
});
export type OwnerCreate = z.output<typeof ownerCreate>;

export const ownerUpdate = z.object({
  roles: roles.optional(),
  ownershipPercentage: ownershipPercentage.optional(),
  personalInfo: personalInfo.partial().optional(),
});
export type OwnerUpdate = z.output<typeof ownerUpdate>;

export const ownerIdParams = z.object({ beneficialOwnerId: z.string() });

export const ownerListQuery = z.object({ customerId: z.string().min(1), ...pageQuery });

export const beneficialOwner = z.object({
  id: z.string(),
  customerId: z.string(),
  roles: z.array(ownerRole),
  ownershipPercentage: z.number().int(),
  personalInfo,
  kycStatus,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const beneficialOwnerList = z.object({
  data: z.array(beneficialOwner),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});
