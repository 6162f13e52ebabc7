import { z } from 'zod';
import type { ResponseDoc } from './endpoint';

// Building blocks for the response part of endpoint definitions, from which the served OpenAPI
// document is generated.
export const errorBody = z.object({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  details: z
    .object({
      errors: z
        .array(
          z.object({
            field: z.string(),
            constraint: z
              .object({
                format: z.string(),
                pattern: z.string(),
                enum: z.array(z.string()),
                minLength: z.number().int(),
                maxLength: z.number().int(),
              })
              .partial()
              .optional(),
            message: z.string(),
          }),
        )
        .optional(),
    })
    .catchall(z.unknown())
    .optional(),
});

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition failed',
  424: 'Failed dependency',
  429: 'Too many requests',
  500: 'Internal service error',
  501: 'Not implemented',
};

export function errors(...statuses: number[]): Record<number, ResponseDoc> {
  return Object.fromEntries(
    [...statuses, 500].map((s) => [s, { description: ERROR_TEXT[s] ?? 'Error', schema: errorBody }]),
  );
}

export const signedChallenge = z.object({
  type: z.string().optional(),
  payloadToSign: z.string(),
  requestId: z.string(),
  expiresAt: z.string(),
});
