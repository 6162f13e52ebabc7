import { z } from 'zod';
import { isoDateTime } from '../core/fields';
import { pageQuery } from '../core/pagination';
import { documentType } from '../documents/schema';

// Verifications and hosted KYC links (reference: VerificationRequest, Verification,
// VerificationError, VerificationListResponse, KycLinkCreateRequest, KycLinkResponse).
export const VERIFICATION_STATUSES = [
  'RESOLVE_ERRORS',
  'PENDING_MANUAL_REVIEW',
  'IN_PROGRESS',
  'APPROVED',
  'REJECTED',
  'READY_FOR_VERIFICATION',
] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const verificationStatus = z.enum(VERIFICATION_STATUSES);

export const verificationErrorType = z.enum([
  'MISSING_FIELD',
  'INVALID_FIELD',
  'MISSING_LEGAL_PRESENCE_DOCUMENT',
  'MISSING_CONTROL_STRUCTURE_DOCUMENT',
  'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
  'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
  'MISSING_IDENTITY_DOCUMENT',
  'INVALID_DOCUMENT',
  'EXPIRED_DOCUMENT',
  'POOR_QUALITY_DOCUMENT',
  'SUSPECTED_FRAUD_DOCUMENT',
  'WRONG_DOCUMENT_TYPE',
  'INCOMPLETE_DOCUMENT',
  'UNREADABLE_DOCUMENT',
  'DOCUMENT_VERIFICATION_FAILED',
  'APPLICANT_SANCTIONED',
  'APPLICANT_FRAUD',
  'APPLICANT_CRIMINAL_RECORD',
  'APPLICANT_REJECTED',
  'MISSING_BENEFICIAL_OWNER',
  'MISSING_CONTROL_PERSON',
  'MISSING_GOOD_STANDING_DOCUMENT',
]);

export const verificationError = z.object({
  resourceId: z.string(),
  type: verificationErrorType,
  field: z.string().optional(),
  acceptedDocumentTypes: z.array(documentType).optional(),
  reason: z.string(),
});
export type VerificationError = z.output<typeof verificationError>;

export const verificationCreate = z.object({ customerId: z.string().min(1) });

export const verificationIdParams = z.object({ verificationId: z.string() });

export const verificationListQuery = z.object({
  customerId: z.string().optional(),
  verificationStatus: verificationStatus.optional(),
  ...pageQuery,
});

export const verification = z.object({
  id: z.string(),
  customerId: z.string(),
  verificationStatus,
  errors: z.array(verificationError),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const verificationList = z.object({
  data: z.array(verification),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});

export const kycLinkCreate = z
  .object({
    redirectUri: z
      .url({ protocol: /^https?$/, message: 'must be an absolute https:// (or http:// for local development) URI' })
      .max(2048)
      .optional(),
  })
  .optional()
  .default({});

export const kycLink = z.object({
  kycUrl: z.string(),
  expiresAt: isoDateTime,
  provider: z.enum(['SUMSUB']),
  token: z.string().optional(),
});
