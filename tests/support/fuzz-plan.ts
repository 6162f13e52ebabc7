import type { Json } from '@/tests/support/api';
import { API_BASE } from '@/lib/http/endpoint';
import { buildOpenApi, endpointsOf } from '@/lib/http/openapi';
import { routeModules } from '@/lib/http/route-manifest';
import { JSON_BODY_LIMIT } from '@/lib/http/body';

// The fuzz's plan (tests/fuzz.test.ts): every operation of the specification, and the bad
// requests each is fed, made from its schema without sending anything.
export type J = Record<string, Json>;

const doc = buildOpenApi(endpointsOf(routeModules as unknown as Record<string, unknown>[]), API_BASE) as J;
const UUID = '00000000-0000-4000-8000-000000000000';
export const HUGE = 'x'.repeat(100_000);

export interface Operation {
  method: string;
  template: string;
  op: J;
}
export const operations: Operation[] = Object.entries(doc.paths as J).flatMap(([template, ops]) =>
  Object.entries(ops as J).map(([method, op]) => ({ method: method.toUpperCase(), template, op: op as J })),
);

/** A value of the right shape for a path parameter, so the request gets as far as its body. */
function pathValue(schema: J): string {
  const candidates = [
    'Customer',
    'InternalAccount',
    'ExternalAccount',
    'Quote',
    'Transaction',
    'Document',
    'BeneficialOwner',
    'Verification',
    'Token',
    'AuthMethod',
    'Session',
    'Request',
    'DelegatedKey',
    'Invitation',
    'BulkCustomerImportJob',
    'Lookup',
    'Webhook',
  ].map((k) => `${k}:${UUID}`);
  const pattern = schema.pattern ? new RegExp(schema.pattern) : null;
  return [...candidates, '$alice@sandbox.uma.money', 'abc'].find((c) => !pattern || pattern.test(c)) ?? 'abc';
}

function pathOf(o: Operation, override?: (name: string) => string): string {
  return o.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const p = (o.op.parameters as J[]).find((x) => x.in === 'path' && x.name === name);
    return encodeURIComponent(override?.(name) ?? pathValue(p?.schema ?? {}));
  });
}

/** The properties a body schema accepts, across union variants. */
function properties(schema: J | undefined): Record<string, J> {
  if (!schema) return {};
  const out: Record<string, J> = { ...(schema.properties ?? {}) };
  for (const k of ['anyOf', 'oneOf', 'allOf']) for (const sub of schema[k] ?? []) Object.assign(out, properties(sub));
  return out;
}

function typeOf(schema: J): string | undefined {
  if (schema.type) return Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  for (const k of ['anyOf', 'oneOf']) for (const sub of schema[k] ?? []) if (typeOf(sub)) return typeOf(sub);
  return undefined;
}

/** A value of some other JSON type than the schema declares. */
function wrongValue(schema: J): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return 'not an object';
    default:
      return { unexpected: ['shape'] };
  }
}

export interface Init {
  body?: BodyInit;
  contentType?: string;
  headers?: Record<string, string>;
  /** Sent with strict request reading on (CORRIDOR_STRICT_REQUESTS=1). */
  strict?: boolean;
}

/** One bad request; its body is made only when it is sent (some are megabytes). */
export interface Case {
  label: string;
  path: string;
  init: () => Init;
  expect4xx: boolean;
}

export const json = (v: unknown) => ({ body: JSON.stringify(v), contentType: 'application/json' });
/** ASCII JSON text sent as bytes with 0xFF (never UTF-8) where `text` has U+00FF. */
const badUtf8 = (text: string) => ({ body: Buffer.from(text, 'latin1'), contentType: 'application/json' });

type Add = (label: string, path: string, init: Case['init'], expect4xx: boolean) => void;

/**
 * The bad requests one operation is fed, as a plan: the operation's test sends exactly these, and
 * the plan can be counted without sending anything.
 */
export function casesOf(o: Operation): Case[] {
  const cases: Case[] = [];
  const add: Add = (label, path, init, expect4xx) => void cases.push({ label, path, init, expect4xx });
  const content = o.op.requestBody?.content as J | undefined;
  const multipart = content?.['multipart/form-data'];
  const schema = content?.['application/json']?.schema as J | undefined;
  const path = pathOf(o);
  if (schema) jsonBodyCases(add, path, schema);
  else if (multipart) multipartCases(add, path);
  parameterCases(add, o, path);
  return cases;
}

/** A JSON body broken as a whole: its syntax, its top-level type, its bytes, its size, its headers. */
function jsonBodyCases(add: Add, path: string, schema: J) {
  const props = properties(schema);
  const required = (schema.required ?? []) as string[];
  add('malformed JSON', path, () => ({ body: '{"a": [1, 2', contentType: 'application/json' }), true);
  for (const top of ['[]', '42', '"text"', 'null', 'true'])
    add(`top-level ${top}`, path, () => ({ body: top, contentType: 'application/json' }), true);
  add('missing fields', path, () => json({}), required.length > 0);
  // Read leniently an unknown field is ignored (refused only for what else is missing).
  add('unknown field', path, () => json({ zzUnknownField: 1 }), required.length > 0);
  add('unknown field (strict)', path, () => ({ ...json({ zzUnknownField: 1 }), strict: true }), true);
  for (const key of ['__proto__', 'constructor', 'prototype']) {
    add(
      `prototype key ${key}`,
      path,
      () => ({ body: `{"${key}":{"amount":1}}`, contentType: 'application/json' }),
      true,
    );
    add(
      `nested prototype key ${key}`,
      path,
      () => ({ body: `{"zz":{"${key}":1}}`, contentType: 'application/json' }),
      true,
    );
  }
  add('invalid UTF-8', path, () => badUtf8('{"zzText":"a\u00ffb"}'), true);
  add('invalid UTF-8 outside strings', path, () => badUtf8('{"zzText":1\u00ff}'), true);
  add('lone surrogate', path, () => ({ body: '{"zzText":"a\\ud800b"}', contentType: 'application/json' }), true);
  add('gzip content encoding', path, () => ({ ...json({}), headers: { 'content-encoding': 'gzip' } }), true);
  add(
    'deep nesting',
    path,
    () => ({ body: '['.repeat(20_000) + ']'.repeat(20_000), contentType: 'application/json' }),
    true,
  );
  add('oversized body', path, () => json({ blob: 'y'.repeat(JSON_BODY_LIMIT + 1) }), true);
  add('wrong content type', path, () => ({ body: 'a=1', contentType: 'application/x-www-form-urlencoded' }), true);
  fieldCases(add, path, props);
}

/** Each field of a JSON body, and each field nested one level in it, of the wrong type or huge. */
function fieldCases(add: Add, path: string, props: Record<string, J>) {
  for (const [name, prop] of Object.entries(props)) {
    add(`wrong type ${name}`, path, () => json({ [name]: wrongValue(prop) }), true);
    add(`huge ${name}`, path, () => json({ [name]: HUGE }), true);
    if (typeOf(prop) === 'string') {
      add(`invalid UTF-8 ${name}`, path, () => badUtf8(JSON.stringify({ [name]: 'a\u00ffb' })), true);
      add(`lone surrogate ${name}`, path, () => json({ [name]: 'a\udc00b' }), true);
    }
    const nested = properties(prop.items ?? prop);
    for (const [sub, subProp] of Object.entries(nested).slice(0, 12)) {
      const wrap = (inner: J) => json({ [name]: prop.items ? [inner] : inner });
      add(`wrong type ${name}.${sub}`, path, () => wrap({ [sub]: wrongValue(subProp) }), true);
      add(`huge ${name}.${sub}`, path, () => wrap({ [sub]: HUGE }), true);
    }
  }
}

function multipartCases(add: Add, path: string) {
  add('multipart: wrong content type', path, () => json({ file: 'x' }), true);
  add(
    'multipart: malformed',
    path,
    () => ({ body: '--x\r\nbroken', contentType: 'multipart/form-data; boundary=x' }),
    true,
  );
  add('multipart: no fields', path, () => ({ body: new FormData() }), true);
}

/** Query and path parameters: overlong, and malformed where they have a type or a format. */
function parameterCases(add: Add, o: Operation, path: string) {
  for (const q of (o.op.parameters as J[]).filter((x) => x.in === 'query')) {
    add(`query ${q.name} huge`, `${path}?${q.name}=${'q'.repeat(5000)}`, () => ({}), true);
    const t = typeOf(q.schema ?? {});
    if (t === 'integer' || t === 'number' || t === 'boolean' || q.schema?.enum || q.schema?.format) {
      add(`query ${q.name} wrong type`, `${path}?${q.name}=%00not-valid%ff`, () => ({}), true);
    }
  }
  for (const name of (o.op.parameters as J[]).filter((x) => x.in === 'path').map((x) => x.name as string)) {
    add(
      `path ${name} huge`,
      pathOf(o, (n) => (n === name ? 'Z'.repeat(10_000) : pathValue({}))),
      () => ({}),
      true,
    );
    add(
      `path ${name} malformed`,
      pathOf(o, (n) => (n === name ? '../\u0000%' : pathValue({}))),
      () => ({}),
      true,
    );
  }
}

/**
 * A valid body with each field broken in turn (wrong type, huge, an unknown sibling inside each
 * object), nested fields too, then an unknown field at the top: the bodies to send, with labels.
 */
export function brokenFieldsOf(body: J): { label: string; body: J }[] {
  const out: { label: string; body: J }[] = [];
  const mutate = (obj: J, prefix: string[]) => {
    for (const [k, v] of Object.entries(obj)) {
      const at = [...prefix, k];
      const set = (value: unknown): J => {
        const copy = structuredClone(body);
        let cur = copy;
        for (const key of at.slice(0, -1)) cur = cur[key];
        cur[at[at.length - 1]] = value;
        return copy;
      };
      const label = at.join('.');
      const wrong =
        typeof v === 'string'
          ? 12345
          : typeof v === 'number'
            ? 'not a number'
            : Array.isArray(v)
              ? { not: 'an array' }
              : typeof v === 'object'
                ? 'not an object'
                : 'yes';
      out.push({ label: `wrong type ${label}`, body: set(wrong) });
      out.push({ label: `huge ${label}`, body: set(typeof v === 'number' ? Number.MAX_SAFE_INTEGER * 1e6 : HUGE) });
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        out.push({ label: `unknown field in ${label}`, body: set({ ...v, zzUnknown: true }) });
        mutate(v as J, at);
      }
    }
  };
  mutate(body, []);
  out.push({ label: `unknown top-level field`, body: { ...body, zzUnknown: true } });
  return out;
}
