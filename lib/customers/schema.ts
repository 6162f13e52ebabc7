import { z } from 'zod';
import {
  address,
  countryCode,
  currencyCode,
  email,
  isoDate,
  isoDateTime,
  phoneNumber,
  queryBoolean,
} from '../core/fields';
import { pageQuery } from '../core/pagination';

// Customers (reference: CustomerCreateRequestOneOf, CustomerUpdateRequestOneOf, CustomerOneOf).
export const customerType = z.enum(['INDIVIDUAL', 'BUSINESS']);
export const kycStatus = z.enum(['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD']);
export const identificationType = z.enum(['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID']);

const expectedMonthlyTransactionCount = z.enum([
  'COUNT_UNDER_10',
  'COUNT_10_TO_100',
  'COUNT_100_TO_500',
  'COUNT_500_TO_1000',
  'COUNT_OVER_1000',
]);
const expectedMonthlyTransactionVolume = z.enum([
  'VOLUME_UNDER_10K',
  'VOLUME_10K_TO_100K',
  'VOLUME_100K_TO_1M',
  'VOLUME_1M_TO_10M',
  'VOLUME_OVER_10M',
]);
const purposeOfAccount = z.enum([
  'CONTRACTOR_PAYOUTS',
  'CREATOR_PAYOUTS',
  'EMPLOYEE_PAYOUTS',
  'MARKETPLACE_SELLER_PAYOUTS',
  'SUPPLIER_PAYMENTS',
  'CROSS_BORDER_B2B',
  'AR_AUTOMATION',
  'AP_AUTOMATION',
  'EMBEDDED_PAYMENTS',
  'PLATFORM_FEE_COLLECTION',
  'P2P_TRANSFERS',
  'CHARITABLE_DONATIONS',
  'OTHER',
]);

// Enhanced due diligence fields of an individual (reference: CustomerEdd).
const customerEdd = {
  sourceOfFundsCategories: z
    .array(
      z.enum([
        'SALARY',
        'SELF_EMPLOYMENT_INCOME',
        'INVESTMENT_INCOME',
        'PENSION',
        'RENTAL_INCOME',
        'GIFT',
        'INHERITANCE',
        'LOAN',
        'SAVINGS',
        'SALE_OF_ASSETS',
        'OTHER',
      ]),
    )
    .optional(),
  sourceOfFundsOtherDescription: z.string().max(500).optional(),
  sourceOfWealthCategories: z
    .array(
      z.enum([
        'SALARY',
        'BUSINESS_INCOME',
        'INVESTMENTS',
        'INHERITANCE',
        'PROPERTY_SALE',
        'GIFT',
        'RETIREMENT',
        'SAVINGS',
        'OTHER',
      ]),
    )
    .optional(),
  sourceOfWealthOtherDescription: z.string().max(500).optional(),
  purposeOfAccount: purposeOfAccount.optional(),
  purposeOfAccountOtherDescription: z.string().max(500).optional(),
  expectedMonthlyTransactionCount: expectedMonthlyTransactionCount.optional(),
  expectedMonthlyTransactionVolume: expectedMonthlyTransactionVolume.optional(),
  annualIncomeRange: z.enum(['UNDER_50K', 'RANGE_50K_100K', 'RANGE_100K_250K', 'RANGE_250K_1M', 'OVER_1M']).optional(),
  netWorthRange: z
    .enum(['UNDER_100K', 'RANGE_100K_500K', 'RANGE_500K_1M', 'RANGE_1M_5M', 'RANGE_5M_25M', 'OVER_25M'])
    .optional(),
  pepStatus: z.enum(['NONE', 'DOMESTIC', 'FOREIGN', 'HIO', 'FAMILY_OR_ASSOCIATE']).optional(),
};

export const endUserTermsConsent = z.object({
  acceptedAt: isoDateTime,
  ipAddress: z.string().min(2).max(45),
  termsVersion: z.string().min(1).max(32),
  acceptanceMethod: z.enum(['CHECKBOX', 'CLICK_TO_ACCEPT']),
});

const businessInfoFields = {
  legalName: z.string().trim().min(1).max(255),
  doingBusinessAs: z.string().max(255).optional(),
  country: countryCode,
  registrationNumber: z.string().max(64).optional(),
  incorporatedOn: isoDate,
  entityType: z
    .enum([
      'SOLE_PROPRIETORSHIP',
      'PARTNERSHIP',
      'LLC',
      'CORPORATION',
      'S_CORPORATION',
      'NON_PROFIT',
      'PUBLICLY_LISTED_COMPANY',
      'TRUST',
      'PRIVATE_FOUNDATION',
      'CHARITY',
      'OTHER',
    ])
    .optional(),
  taxId: z.string().trim().min(1).max(64),
  countriesOfOperation: z.array(countryCode).optional(),
  businessType: z
    .enum([
      'AGRICULTURE_FORESTRY_FISHING_AND_HUNTING',
      'MINING_QUARRYING_AND_OIL_AND_GAS_EXTRACTION',
      'UTILITIES',
      'CONSTRUCTION',
      'MANUFACTURING',
      'WHOLESALE_TRADE',
      'RETAIL_TRADE',
      'TRANSPORTATION_AND_WAREHOUSING',
      'INFORMATION',
      'FINANCE_AND_INSURANCE',
      'REAL_ESTATE_AND_RENTAL_AND_LEASING',
      'PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES',
      'MANAGEMENT_OF_COMPANIES_AND_ENTERPRISES',
      'ADMINISTRATIVE_AND_SUPPORT_AND_WASTE_MANAGEMENT_AND_REMEDIATION_SERVICES',
      'EDUCATIONAL_SERVICES',
      'HEALTH_CARE_AND_SOCIAL_ASSISTANCE',
      'ARTS_ENTERTAINMENT_AND_RECREATION',
      'ACCOMMODATION_AND_FOOD_SERVICES',
      'OTHER_SERVICES',
      'PUBLIC_ADMINISTRATION',
    ])
    .optional(),
  purposeOfAccount: purposeOfAccount.optional(),
  sourceOfFunds: z.string().max(500).optional(),
  expectedMonthlyTransactionCount: expectedMonthlyTransactionCount.optional(),
  expectedMonthlyTransactionVolume: expectedMonthlyTransactionVolume.optional(),
  expectedRecipientJurisdictions: z.array(countryCode).optional(),
  naicsCode: z
    .string()
    .regex(/^\d{2,6}$/)
    .optional(),
  sourceOfFundsCategories: z
    .array(
      z.enum([
        'OPERATING_REVENUE',
        'INVESTMENT_INCOME',
        'LOANS',
        'VENTURE_CAPITAL',
        'PERSONAL_SAVINGS',
        'DONATIONS',
        'OTHER',
      ]),
    )
    .optional(),
  sourceOfFundsOtherDescription: z.string().min(1).max(500).optional(),
  purposeOfAccountOtherDescription: z.string().min(1).max(500).optional(),
  expectedCounterpartyCountries: z.array(countryCode).optional(),
  primaryContactFirstName: z.string().max(250).optional(),
  primaryContactLastName: z.string().max(250).optional(),
};

export const businessInfo = z.object(businessInfoFields);
/** On update every business field is optional; given ones replace the stored ones. */
export const businessInfoUpdate = z.object(businessInfoFields).partial();

const common = {
  currencies: z.array(currencyCode).min(1).optional(),
  email: email.max(254).optional(),
  phoneNumber: phoneNumber.optional(),
  umaAddress: z.string().max(255).optional(),
  endUserTermsConsent: endUserTermsConsent.optional(),
};

const individualFields = {
  customerType: z.literal('INDIVIDUAL'),
  // Decided by verification, not by the caller: accepted for compatibility, ignored.
  kycStatus: kycStatus.optional(),
  fullName: z.string().trim().min(1).max(255).optional(),
  birthDate: isoDate.optional(),
  nationality: countryCode.optional(),
  address: address.optional(),
  idType: identificationType.optional(),
  identifier: z.string().trim().min(1).max(64).optional(),
  countryOfIssuance: countryCode.optional(),
  ...customerEdd,
};

const businessFields = {
  customerType: z.literal('BUSINESS'),
  kybStatus: kycStatus.optional(),
  address: address.optional(),
};

const createOnly = { platformCustomerId: z.string().trim().min(1).max(255).optional(), region: countryCode.optional() };

export const customerCreate = z.discriminatedUnion('customerType', [
  z.object({ ...createOnly, ...common, ...individualFields }),
  z.object({ ...createOnly, ...common, ...businessFields, businessInfo }),
]);
export type CustomerCreate = z.output<typeof customerCreate>;

export const customerUpdate = z.discriminatedUnion('customerType', [
  z.object({ ...common, ...individualFields }),
  z.object({ ...common, ...businessFields, businessInfo: businessInfoUpdate.optional() }),
]);
export type CustomerUpdate = z.output<typeof customerUpdate>;

export const customerIdParams = z.object({ customerId: z.string() });

export const customerListQuery = z.object({
  platformCustomerId: z.string().optional(),
  customerType: customerType.optional(),
  createdAfter: isoDateTime.optional(),
  createdBefore: isoDateTime.optional(),
  updatedAfter: isoDateTime.optional(),
  updatedBefore: isoDateTime.optional(),
  region: z.string().optional(),
  currency: z.string().optional(),
  umaAddress: z.string().optional(),
  isIncludingDeleted: queryBoolean.optional(),
  ...pageQuery,
});

const contactVerificationStatus = z.enum(['PENDING', 'VERIFIED']);

// Response shape, for the served OpenAPI document.
export const customer = z.object({
  id: z.string(),
  platformCustomerId: z.string(),
  customerType,
  umaAddress: z.string(),
  region: z.string().optional(),
  currencies: z.array(z.string()).optional(),
  email: z.string().optional(),
  phoneNumber: z.string().optional(),
  endUserTermsConsent: endUserTermsConsent.optional(),
  contactVerification: z
    .object({ email: contactVerificationStatus, phone: contactVerificationStatus })
    .partial()
    .optional(),
  kycStatus: kycStatus.optional(),
  kybStatus: kycStatus.optional(),
  fullName: z.string().optional(),
  birthDate: z.string().optional(),
  nationality: z.string().optional(),
  address: address.optional(),
  idType: identificationType.optional(),
  countryOfIssuance: z.string().optional(),
  businessInfo: businessInfoUpdate.optional(),
  beneficialOwners: z.array(z.object({ id: z.string() }).catchall(z.unknown())).optional(),
  isDeleted: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const customerList = z.object({
  data: z.array(customer),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});

export const endUserTerms = z.object({ version: z.string(), url: z.string() });
