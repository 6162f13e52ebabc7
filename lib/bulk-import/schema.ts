import { z } from 'zod';
import { isoDateTime } from '../core/fields';

// Bulk customer import (reference: uploadCustomersCsv, BulkCustomerImportJob).
export const csvUpload = z.object({
  file: z
    .custom<Blob>((v) => v instanceof Blob, { message: 'is required: send the CSV file as the multipart field "file"' })
    .meta({ type: 'string', format: 'binary', description: 'CSV file containing customer information' } as Record<
      string,
      unknown
    >),
});

export const jobIdParams = z.object({ jobId: z.string() });

export const jobAccepted = z.object({ jobId: z.string(), status: z.enum(['PENDING', 'PROCESSING']) });

const fieldErrorShape = z.object({ field: z.string(), message: z.string() }).catchall(z.unknown());

export const bulkImportJob = z.object({
  id: z.string(),
  status: z.enum(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED']),
  progress: z.object({
    total: z.number().int(),
    processed: z.number().int(),
    successful: z.number().int(),
    failed: z.number().int(),
  }),
  errors: z.array(
    z.object({
      correlationId: z.string(),
      code: z.string(),
      message: z.string(),
      details: z.object({ row: z.number().int(), field: z.string().optional(), errors: z.array(fieldErrorShape) }),
    }),
  ),
  completedAt: isoDateTime.optional(),
});
