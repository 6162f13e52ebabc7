import { z } from 'zod';
import { currencyCode, isoDateTime } from '../core/fields';
import { pageQuery } from '../core/pagination';
import { walletBeneficiary } from './beneficiary';
import { checkCreateRequest, WALLET_TYPES } from './rules';
import { bankVariantSchemas } from './variants';

// External accounts (reference: ExternalAccountCreateRequest, PlatformExternalAccountCreateRequest,
// ExternalAccount, ExternalAccountCreateInfoOneOf, Ownership*, BeneficiaryTrust*).
export const ownershipType = z.enum(['FIRST_PARTY', 'THIRD_PARTY']);
export const externalAccountStatus = z.enum([
  'PENDING',
  'ACTIVE',
  'PENDING_OWNERSHIP_VERIFICATION',
  'UNVERIFIED',
  'UNDER_REVIEW',
  'INACTIVE',
]);
export type ExternalAccountStatus = z.infer<typeof externalAccountStatus>;
export const beneficiaryVerificationStatus = z.enum([
  'MATCHED',
  'PARTIAL_MATCH',
  'NOT_MATCHED',
  'UNSUPPORTED',
  'CHECKED_BY_RECEIVING_FI',
  'PENDING',
]);
export type BeneficiaryVerificationStatus = z.infer<typeof beneficiaryVerificationStatus>;

const walletFields = {
  address: z.string().trim().min(1).max(255),
  beneficiary: walletBeneficiary.optional(),
  vaspName: z.string().trim().min(1).max(255).optional(),
};
const walletSchemas = WALLET_TYPES.map((t) => z.object({ accountType: z.literal(t), ...walletFields }));

const lightning = z.object({
  accountType: z.literal('LIGHTNING'),
  invoice: z.string().trim().min(1).max(4096).optional(),
  bolt12: z.string().trim().min(1).max(4096).optional(),
  lightningAddress: z.string().trim().min(1).max(320).optional(),
});

type Variant = (typeof bankVariantSchemas)[number] | (typeof walletSchemas)[number] | typeof lightning;
export const accountInfoCreate = z.discriminatedUnion('accountType', [
  ...bankVariantSchemas,
  ...walletSchemas,
  lightning,
] as unknown as [Variant, ...Variant[]]);

const createFields = {
  currency: currencyCode,
  platformAccountId: z.string().trim().min(1).max(255).optional(),
  ownershipType: ownershipType.optional(),
  accountInfo: accountInfoCreate,
};
// Cross-field rules run even when fields failed, so one answer lists every problem.
const always = { when: () => true };

export const customerExternalAccountCreate = z
  .object({
    customerId: z.string().min(1).max(255).optional(),
    ...createFields,
    defaultUmaDepositAccount: z.boolean().default(false),
  })
  .check(z.superRefine(checkCreateRequest, always));

export const platformExternalAccountCreate = z
  .object({
    ...createFields,
    customerId: z.unknown().optional().meta({ description: 'Not accepted: platform accounts have no customer.' }),
  })
  .check(z.superRefine(checkCreateRequest, always))
  .check(
    // Platform accounts have no customer: refusing one beats silently creating a platform account.
    z.superRefine((v, ctx) => {
      if ((v as { customerId?: unknown })?.customerId !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['customerId'],
          message:
            'is not accepted here: platform accounts have no customer (create a customer external account instead)',
        });
      }
    }, always),
  );

export type ExternalAccountCreate = {
  customerId?: string;
  currency: string;
  platformAccountId?: string;
  ownershipType?: 'FIRST_PARTY' | 'THIRD_PARTY';
  defaultUmaDepositAccount?: boolean;
  accountInfo: { accountType: string; [k: string]: unknown };
};

export const externalAccountIdParams = z.object({ externalAccountId: z.string() });

export const customerExternalAccountsQuery = z.object({
  currency: z.string().optional(),
  customerId: z.string().optional(),
  ...pageQuery,
});
export const platformExternalAccountsQuery = z.object({ currency: z.string().optional(), ...pageQuery });

// Response shape (served OpenAPI document); accountInfo is the variant as created plus paymentRails.
export const externalAccount = z.object({
  id: z.string(),
  customerId: z.string().optional(),
  status: externalAccountStatus,
  platformAccountId: z.string().optional(),
  ownershipType: ownershipType.optional(),
  currency: z.string(),
  defaultUmaDepositAccount: z.boolean().optional(),
  beneficiaryVerificationStatus: beneficiaryVerificationStatus.optional(),
  beneficiaryVerifiedData: z.object({ fullName: z.string().optional() }).optional(),
  accountInfo: z
    .object({ accountType: z.string(), paymentRails: z.array(z.string()).optional() })
    .catchall(z.unknown()),
});
export const externalAccountList = z.object({
  data: z.array(externalAccount),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});

export const ownershipMethod = z.enum(['WALLET_SIGNATURE', 'LIVENESS']);
export const ownershipChallengeRequest = z.object({ method: ownershipMethod });
export const ownershipChallenge = z.discriminatedUnion('method', [
  z.object({ method: z.literal('WALLET_SIGNATURE'), messageToSign: z.string(), expiresAt: isoDateTime }),
  z.object({
    method: z.literal('LIVENESS'),
    verificationLink: z.string(),
    token: z.string().optional(),
    expiresAt: isoDateTime,
  }),
]);
export const ownershipVerifyRequest = z.object({
  signature: z.string().trim().min(1).max(1024),
  signatureScheme: z.enum(['bip137', 'electrum']).default('bip137'),
});

export const scaFactor = z.enum(['SMS_OTP', 'TOTP', 'PASSKEY']);
export const scaChallenge = z.object({
  id: z.string(),
  expiresAt: isoDateTime,
  factor: scaFactor,
  availableFactors: z.array(scaFactor),
  purpose: z.string().nullable().optional(),
});
export const beneficiaryTrustStart = z.object({ scaChallenge: scaChallenge.optional() });
export const beneficiaryTrustConfirmRequest = z
  .object({
    challengeId: z.string().max(255).nullable().optional(),
    code: z.string().max(32).nullable().optional(),
    passkeyAssertion: z.record(z.string(), z.unknown()).nullable().optional(),
    origin: z.string().max(2048).nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.code == null && (v.passkeyAssertion == null || v.origin == null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['code'],
        message: 'is required (or passkeyAssertion with origin for a PASSKEY challenge)',
      });
    }
  });
export type BeneficiaryTrustConfirmRequest = z.output<typeof beneficiaryTrustConfirmRequest>;
export const beneficiaryTrustConfirm = z.object({ trusted: z.boolean() });
