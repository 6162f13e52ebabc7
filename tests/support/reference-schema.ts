import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import { requireReferenceFile } from './reference';

// Validates a value against one named schema of the reference (components/schemas/<name>), for
// what the response conformance check does not see: webhook bodies recorded in the outbox.
type Json = Record<string, unknown>;
let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'example' || k === 'examples' || k === 'discriminator') continue;
    out[k] = k === '$ref' && typeof v === 'string' ? v.replace(/^#\//, 'ref#/') : strip(v);
  }
  return out;
}

function validator(name: string): ValidateFunction {
  if (!ajv) {
    const doc = YAML.parse(readFileSync(requireReferenceFile('openapi.yaml'), 'utf8')) as Json;
    ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'ref', components: strip(doc.components) });
  }
  let fn = compiled.get(name);
  if (!fn) compiled.set(name, (fn = ajv.compile({ $ref: `ref#/components/schemas/${name}` })));
  return fn;
}

/** Throws, naming the problems, when `value` does not match the reference schema `name`. */
export function expectSchema(name: string, value: unknown): void {
  const plain = JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));
  const fn = validator(name);
  if (!fn(plain))
    throw new Error(
      `${name}: ${(fn.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`).join('; ')}\n${JSON.stringify(plain).slice(0, 1200)}`,
    );
}
