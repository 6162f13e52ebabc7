import { errorResponse } from '@/lib/http/endpoint';
import { logged } from '@/lib/http/request-log';
import { DomainError } from '@/lib/core/errors';

// Anything under the base path that no route matches: a JSON 404 in the error shape.
const unknown = logged('(no such operation)', async function unknown(req: Request): Promise<Response> {
  const path = new URL(req.url).pathname;
  return errorResponse(
    new DomainError('REFERENCE_NOT_FOUND', `No operation ${req.method} ${path}; see /api/2025-10-13/openapi.json`),
  );
});

export const GET = unknown;
export const POST = unknown;
export const PUT = unknown;
export const PATCH = unknown;
export const DELETE = unknown;
