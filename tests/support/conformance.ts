import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { inject } from 'vitest';
import YAML from 'yaml';
import { noteCheckNotMade, takeSkipped } from './needs-reference';
import { referenceFile } from './reference';
import { plainJson, problemsOf, ServedDocument } from './served-document';

// Validates every response body the suite sees twice: against the service's own served OpenAPI
// document (always; tests/support/served-document.ts), and against the reference document's
// schema for that operation and status (../shared/reference/openapi.yaml or
// CORRIDOR_REFERENCE_DIR) when it is present. Without the reference the checks that need it are
// skipped and named at the end of the run; with CI set that fails the run.
const REFERENCE = process.env.CORRIDOR_REFERENCE_OPENAPI || referenceFile('openapi.yaml');

type Json = Record<string, unknown>;
let doc: Json | null | undefined;
let ajv: Ajv2020;
const validators = new Map<string, ValidateFunction | null>();
const seenPairs = new Set<string>();
const extensions = new Set<string>();
let validated = 0;

// The reference uses OpenAPI's `discriminator`, which plain JSON Schema ignores; rewriting it as
// if/then on the discriminator value makes oneOf branches that overlap validate precisely.
function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (!node || typeof node !== 'object') return node;
  const o = node as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === 'example' || k === 'examples') continue;
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace(/^#\//, 'ref#/');
    else out[k] = rewrite(v);
  }
  const disc = o.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
  if (disc?.mapping && Array.isArray(o.oneOf)) {
    const p = disc.propertyName;
    delete out.oneOf;
    delete out.discriminator;
    out.required = [...new Set([...((out.required as string[]) ?? []), p])];
    out.properties = { ...((out.properties as Json) ?? {}), [p]: { enum: Object.keys(disc.mapping) } };
    out.allOf = [
      ...((out.allOf as unknown[]) ?? []),
      ...Object.entries(disc.mapping).map(([value, ref]) => ({
        if: { properties: { [p]: { const: value } }, required: [p] },
        then: { $ref: ref.replace(/^#\//, 'ref#/') },
      })),
    ];
  } else if (disc) {
    delete out.discriminator;
  }
  return out;
}

/** The reference document, parsed; null when it is not beside the project. */
export function referenceDocument(): Json | null {
  return load();
}

function load(): Json | null {
  if (doc !== undefined) return doc;
  if (!REFERENCE || !existsSync(REFERENCE)) {
    if (process.env.CI)
      throw new Error(`conformance: reference document not found at ${REFERENCE} (required when CI is set)`);
    doc = null;
    return doc;
  }
  doc = YAML.parse(readFileSync(REFERENCE, 'utf8')) as Json;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'ref', components: rewrite(doc.components) });
  return doc;
}

function validatorFor(method: string, template: string, status: number): ValidateFunction | null | 'extension' {
  const key = `${method} ${template} ${status}`;
  if (validators.has(key)) return validators.get(key)!;
  const d = load();
  if (!d) return null;
  const pathItem = (d.paths as Json)[template] as Json | undefined;
  const op = pathItem?.[method.toLowerCase()] as Json | undefined;
  if (!op) return 'extension';
  const responses = op.responses as Record<string, Json>;
  const schema = (responses[String(status)]?.content as Json | undefined)?.['application/json'] as Json | undefined;
  let fn: ValidateFunction | null = null;
  if (schema?.schema) {
    fn = ajv.compile(rewrite(schema.schema) as Json);
  } else if (!responses[String(status)] && status >= 400) {
    // A status this operation does not list (e.g. 403 for a missing permission): the generic
    // error schema for that status still applies.
    const generic = (d.components as { schemas: Json }).schemas[`Error${status}`];
    if (generic) fn = ajv.compile({ $ref: `ref#/components/schemas/Error${status}` });
  }
  validators.set(key, fn);
  return fn;
}

let served: ServedDocument | undefined;
const servedDocument = () => (served ??= ServedDocument.fromFile(inject('servedDocument')));

/**
 * Throws when `body` (undefined: the answer had no JSON body) does not match the served document
 * or, when present, the reference; returns whether a schema was applied.
 */
export function checkResponse(method: string, template: string, status: number, body: unknown): boolean {
  const checked = servedDocument().check(method, template, status, body);
  return checkReference(method, template, status, body ?? {}) || checked;
}

function checkReference(method: string, template: string, status: number, body: unknown): boolean {
  const v = validatorFor(method, template, status);
  if (v === 'extension') {
    extensions.add(`${method} ${template}`);
    return false;
  }
  if (!v) return false;
  const plain = plainJson(body);
  if (!v(plain)) {
    throw new Error(
      `conformance: ${method} ${template} ${status} does not match the reference:\n  ${problemsOf(v).join('\n  ')}\nbody: ${JSON.stringify(plain).slice(0, 1500)}`,
    );
  }
  validated++;
  seenPairs.add(`${method} ${template} ${status}`);
  return true;
}

let flushes = 0;
/** Writes this test file's counts (and what it skipped for want of the reference) for the global setup. */
export function flushConformance(dir: string) {
  const skipped = takeSkipped();
  const own = served?.take();
  if (
    !validated &&
    !extensions.size &&
    !own?.responses &&
    !own?.unlisted.length &&
    !skipped.tests.length &&
    !skipped.checks.length
  )
    return;
  writeFileSync(
    path.join(dir, `${process.pid}-${++flushes}-${Date.now()}.json`),
    JSON.stringify({
      reference: { responses: validated, pairs: [...seenPairs], extensions: [...extensions] },
      served: own ?? { responses: 0, pairs: [], unlisted: [] },
      skipped,
    }),
  );
  validated = 0;
  seenPairs.clear();
  extensions.clear();
}

/**
 * Throws when `body` does not match the reference's component schema `name` (e.g. a webhook
 * body such as `CardTransactionWebhook`); false without the reference.
 */
export function checkSchema(name: string, body: unknown): boolean {
  if (!load()) {
    noteCheckNotMade('openapi.yaml', `schema ${name}`);
    return false;
  }
  const fn =
    ajv.getSchema(`ref#/components/schemas/${name}`) ?? ajv.compile({ $ref: `ref#/components/schemas/${name}` });
  const plain = plainJson(body);
  if (!fn(plain)) {
    const problems = (fn.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
    throw new Error(`conformance: ${name} does not match the reference:\n  ${problems.join('\n  ')}`);
  }
  return true;
}

/**
 * The same for a webhook named as the reference's `webhooks` section names it (e.g.
 * `internal-account-status`): its request body's schema, a component.
 */
export function checkWebhook(name: string, body: unknown): boolean {
  const d = load();
  if (!d) {
    noteCheckNotMade('openapi.yaml', `webhook ${name}`);
    return false;
  }
  const hook = (d.webhooks as Json | undefined)?.[name] as Json | undefined;
  const content = ((hook?.post as Json | undefined)?.requestBody as Json | undefined)?.content as Json | undefined;
  const ref = ((content?.['application/json'] as Json | undefined)?.schema as Json | undefined)?.$ref;
  if (typeof ref !== 'string') throw new Error(`conformance: the reference has no webhook ${name}`);
  return checkSchema(ref.replace('#/components/schemas/', ''), body);
}
