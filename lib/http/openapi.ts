import { z } from 'zod';
import type { Endpoint, Method, ResponseDoc, RouteHandler } from './endpoint';
import { errorBody } from './docs';

// Our own OpenAPI 3.1 document, generated from the endpoint definitions and their zod schemas,
// served at {base}/openapi.json. It describes what this implementation does, extensions included.
type JsonSchema = Record<string, unknown>;
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      const meta = z.globalRegistry.get(ctx.zodSchema) as
        { type?: string; format?: string; items?: JsonSchema } | undefined;
      if (meta?.type === 'integer' || meta?.type === 'array') {
        for (const k of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as JsonSchema)[k];
        Object.assign(
          ctx.jsonSchema,
          meta.type === 'integer'
            ? { type: 'integer', format: meta.format ?? 'int64' }
            : { type: 'array', items: meta.items },
        );
      }
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[]) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
  }));
}

export function endpointsOf(modules: Record<string, unknown>[]): Endpoint[] {
  const out: Endpoint[] = [];
  for (const mod of modules) {
    for (const m of METHODS) {
      const handler = mod[m] as (RouteHandler & Partial<Pick<Endpoint, 'def'>>) | undefined;
      if (handler?.def) out.push(handler as Endpoint);
    }
  }
  return out;
}

/**
 * Answers the wrapper itself may give any operation, whatever its route declares: a refused or
 * throttled caller (401, 429), a JSON body of another media type (415), a running request under
 * the same Idempotency-Key (409 in progress), and a database that did not answer in time (503,
 * nothing changed).
 */
function generalAnswers(def: Endpoint['def']): Record<number, ResponseDoc> {
  const statuses = [503];
  if (def.auth !== 'none') statuses.push(401, 429);
  if (def.body && def.bodyType !== 'multipart') statuses.push(415);
  if (def.idempotent) statuses.push(409);
  return Object.fromEntries(statuses.map((s) => [s, { description: GENERAL[s], schema: errorBody }]));
}
const GENERAL: Record<number, string> = {
  401: 'Unauthorized',
  409: 'A request with this Idempotency-Key is still in progress',
  415: 'The body is not JSON',
  429: 'Too many failed authentications from this address or for this client',
  503: 'The database did not answer in time; nothing was changed (retry)',
};

/** This document itself, served without credentials. */
const SELF = {
  operationId: 'getOpenapiJson',
  summary: "This service's OpenAPI document",
  tags: ['Documentation'],
  security: [],
  'x-corridor-extension': true,
  parameters: [],
  responses: {
    200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } },
  },
};

export function buildOpenApi(endpoints: Endpoint[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { def } of endpoints) {
    const op: Record<string, unknown> = {
      operationId: `${def.method.toLowerCase()}${def.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(\w)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: def.summary,
      ...(def.description ? { description: def.description } : {}),
      tags: def.tags,
      security: def.auth === 'none' ? [] : def.auth === 'agent' ? [{ AgentAuth: [] }] : [{ BasicAuth: [] }],
      ...(def.permission ? { 'x-required-permission': def.permission } : {}),
      ...(def.sandboxOnly ? { 'x-sandbox-only': true } : {}),
      ...(def.extension ? { 'x-corridor-extension': true } : {}),
      parameters: [
        ...parameters(def.params, 'path'),
        ...parameters(def.query, 'query'),
        ...(def.idempotent
          ? [
              {
                name: 'Idempotency-Key',
                in: 'header',
                required: !!def.keyRequired,
                schema: { type: 'string', maxLength: 255 },
              },
            ]
          : []),
        ...Object.entries(def.headers ?? {}).map(([name, description]) => ({
          name,
          in: 'header',
          required: false,
          description,
          schema: { type: 'string' },
        })),
      ],
      responses: Object.fromEntries(
        Object.entries({ ...generalAnswers(def), ...def.responses }).map(([status, r]) => [
          status,
          {
            description: r.description,
            ...(r.schema ? { content: { 'application/json': { schema: toSchema(r.schema, 'output') } } } : {}),
          },
        ]),
      ),
    };
    if (def.body) {
      const type = def.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json';
      op.requestBody = { required: true, content: { [type]: { schema: toSchema(def.body, 'input') } } };
    }
    (paths[def.path] ??= {})[def.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Corridor API',
      version: '2025-10-13',
      description:
        "Self-hostable implementation of the global payments interface. Generated from the service's own request and response schemas.",
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        BasicAuth: { type: 'http', scheme: 'basic', description: 'API client id (or token id) and client secret' },
        AgentAuth: {
          type: 'http',
          scheme: 'bearer',
          description: "Agent access token, scoped to the agent's customer",
        },
      },
    },
    paths: Object.fromEntries(
      Object.entries({ ...paths, '/openapi.json': { get: SELF } }).sort(([a], [b]) => a.localeCompare(b)),
    ),
  };
}
