import { z } from 'zod';
import { countryCode, isoDateTime } from '../core/fields';
import { pageQuery } from '../core/pagination';

// Verification documents (reference: DocumentUploadRequest, DocumentReplaceRequest, Document,
// DocumentListResponse). Requests are multipart/form-data: every field arrives as a string,
// the file as a File.
export const DOCUMENT_TYPES = [
  'PASSPORT',
  'DRIVERS_LICENSE',
  'NATIONAL_ID',
  'PROOF_OF_ADDRESS',
  'BANK_STATEMENT',
  'TAX_RETURN',
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'STATE_REGISTRY_EXCERPT',
  'GOOD_STANDING_CERTIFICATE',
  'INFORMATION_STATEMENT',
  'INCUMBENCY_CERTIFICATE',
  'BUSINESS_LICENSE',
  'SHAREHOLDER_REGISTER',
  'POWER_OF_ATTORNEY',
  'UTILITY_BILL',
  'ELECTRICITY_BILL',
  'RENT_OR_LEASE_AGREEMENT',
  'DIRECTOR_REGISTRY',
  'TRUST_AGREEMENT',
  'STATE_COMPANY_REGISTRY',
  'PARTNERSHIP_CONTROL_AGREEMENT',
  'PARTNERSHIP_AGREEMENT',
  'SELFIE',
  'OTHER',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const documentType = z.enum(DOCUMENT_TYPES);
const side = z.enum(['FRONT', 'BACK']);

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

// An HTML form sends an untouched optional field as an empty string: that means "not given".
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const file = z
  .custom<File>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      typeof (v as Blob).arrayBuffer === 'function' &&
      typeof (v as File).name === 'string',
    {
      message: 'must be a file part (PDF, JPEG or PNG)',
    },
  )
  .refine((f) => f.size > 0, { message: 'must not be empty' })
  .refine((f) => f.size <= MAX_FILE_BYTES, { message: `must be at most 10 MiB (${MAX_FILE_BYTES} bytes)` })
  .meta({ type: 'string', format: 'binary' } as Record<string, unknown>);

const baseFields = {
  file,
  documentType,
  side: optional(side),
  country: countryCode,
  documentNumber: optional(z.string().trim().min(1).max(64)),
  issuingAuthority: optional(z.string().trim().min(1).max(255)),
};

export const documentReplace = z.object(baseFields);
export type DocumentReplace = z.output<typeof documentReplace>;

export const documentUpload = z.object({ documentHolder: z.string().trim().min(1).max(255), ...baseFields });
export type DocumentUpload = z.output<typeof documentUpload>;

export const documentIdParams = z.object({ documentId: z.string() });

export const documentListQuery = z.object({ documentHolder: z.string().optional(), ...pageQuery });

export const document = z.object({
  id: z.string(),
  documentHolder: z.string(),
  documentType,
  side: side.optional(),
  country: z.string(),
  documentNumber: z.string().optional(),
  issuingAuthority: z.string().optional(),
  fileName: z.string(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const documentList = z.object({
  data: z.array(document),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});
