import { z } from 'zod';
import { isoDateTime } from '../core/fields';
import { pageQuery } from '../core/pagination';

// API tokens (reference: ApiToken, ApiTokenCreateRequest, TokenListResponse).
export const permission = z.enum(['VIEW', 'TRANSACT', 'MANAGE']);

export const tokenCreate = z.object({
  name: z.string().trim().min(1).max(255),
  permissions: z
    .array(permission)
    .min(1)
    .refine((p) => new Set(p).size === p.length, 'must not repeat a permission'),
});

// Path ids are not format-checked: an unknown or malformed id is simply not found (404).
export const tokenIdParams = z.object({ tokenId: z.string() });

export const tokenListQuery = z.object({
  name: z.string().optional(),
  createdAfter: isoDateTime.optional(),
  createdBefore: isoDateTime.optional(),
  updatedAfter: isoDateTime.optional(),
  updatedBefore: isoDateTime.optional(),
  ...pageQuery,
});

export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  permissions: z.array(permission),
  clientId: z.string(),
  clientSecret: z.string().optional().describe('Only in the creation response; never retrievable again'),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const tokenList = z.object({
  data: z.array(apiToken),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});

// POST /tokens/{tokenId}/rotate (our extension; the reference has no way to rotate a secret).
export const MAX_OVERLAP_SECONDS = 30 * 24 * 3600;

export const tokenRotate = z
  .object({
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_OVERLAP_SECONDS)
      .optional()
      .describe('How long the replaced secret keeps working, in seconds (default 86400; 0 revokes it now)'),
  })
  .default({});

export const apiTokenRotation = apiToken.extend({
  clientSecret: z.string().describe('The new secret: only in this response; never retrievable again'),
  previousSecretExpiresAt: isoDateTime
    .nullable()
    .describe('Until when the replaced secret still authenticates (null: it stopped at once)'),
});
