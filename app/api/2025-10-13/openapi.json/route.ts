import { API_BASE, methodNotAllowed } from '@/lib/http/endpoint';
import { buildOpenApi, endpointsOf } from '@/lib/http/openapi';
import { routeModules } from '@/lib/http/route-manifest';
import { logged } from '@/lib/http/request-log';

// GET /openapi.json – this service's own OpenAPI document, generated from its zod schemas
let cached: string | undefined;

export const GET = logged('/openapi.json', async () => {
  cached ??= JSON.stringify(buildOpenApi(endpointsOf(routeModules), API_BASE));
  return new Response(cached, { headers: { 'content-type': 'application/json; charset=utf-8' } });
});

// Other methods get the JSON 405 every path under the base answers (Next's own has no body).
export const POST = logged('/openapi.json', methodNotAllowed(['GET']));
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
