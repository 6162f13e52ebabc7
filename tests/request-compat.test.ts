import type { Json } from '@/tests/support/api';
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { buildOpenApi, endpointsOf } from '@/lib/http/openapi';
import { routeModules } from '@/lib/http/route-manifest';
import { describeWithReference } from './support/needs-reference';

// Request bodies ignore fields they do not know, and refuse them in strict mode
// (CORRIDOR_STRICT_REQUESTS=1, lib/core/validation.ts unknownFields). Either is only safe if every
// field the reference lets a client send is one we know: an existing client must work by changing
// the base URL alone, and must not see a field it sends silently dropped. And no field may take
// longer strings than the reference allows. Checked here for every operation of the reference
// this service implements.
type J = Record<string, Json>;

function resolve(doc: J, s: J | undefined): J | undefined {
  let cur = s;
  for (let i = 0; cur?.$ref && i < 20; i++)
    cur = (cur.$ref as string)
      .split('/')
      .slice(1)
      .reduce((o: J, k: string) => o[k], doc);
  return cur;
}

interface Field {
  maxLength?: number;
  bounded: boolean;
}

/** Every property path a body schema accepts (objects merged across allOf/oneOf/anyOf). */
function fields(
  doc: J,
  s: J | undefined,
  prefix = '',
  out = new Map<string, Field>(),
  seen = new Set<J>(),
): Map<string, Field> {
  s = resolve(doc, s);
  if (!s || seen.has(s)) return out;
  const inner = new Set(seen).add(s);
  const here = out.get(prefix) ?? { bounded: false };
  if (typeof s.maxLength === 'number') here.maxLength = Math.min(here.maxLength ?? Infinity, s.maxLength);
  if (typeof s.maxLength === 'number' || Array.isArray(s.enum) || 'const' in s) here.bounded = true;
  if (prefix) out.set(prefix, here);
  for (const k of ['allOf', 'oneOf', 'anyOf']) for (const sub of s[k] ?? []) fields(doc, sub, prefix, out, inner);
  if (s.items) fields(doc, s.items, `${prefix}[]`, out, inner);
  for (const [name, sub] of Object.entries((s.properties ?? {}) as J))
    fields(doc, sub, prefix ? `${prefix}.${name}` : name, out, inner);
  return out;
}

describeWithReference('openapi.yaml', 'request bodies against the reference', (file) => {
  const ref = YAML.parse(readFileSync(file, 'utf8')) as J;
  const ours = buildOpenApi(endpointsOf(routeModules as unknown as Record<string, unknown>[]), '') as J;
  const operations: { name: string; theirs: Map<string, Field>; mine: Map<string, Field> }[] = [];
  for (const [path, ops] of Object.entries(ref.paths as J)) {
    for (const [method, op] of Object.entries(ops as J)) {
      const content = resolve(ref, (op as J).requestBody)?.content as J | undefined;
      const mine = ours.paths[path]?.[method];
      if (!content || !mine) continue; // no body, or an operation of a later issue
      const type = Object.keys(content)[0];
      const myContent = mine.requestBody?.content as J | undefined;
      operations.push({
        name: `${method.toUpperCase()} ${path}`,
        theirs: fields(ref, content[type].schema),
        mine: myContent ? fields(ours, Object.values(myContent)[0].schema) : new Map(),
      });
    }
  }

  it('covers the implemented operations that take a body', () => {
    expect(operations.length).toBeGreaterThan(40);
  });

  it('accepts every field the reference defines', () => {
    const missing = operations.flatMap((o) =>
      [...o.theirs.keys()].filter((f) => !o.mine.has(f)).map((f) => `${o.name}: ${f}`),
    );
    expect(missing).toEqual([]);
  });

  it('takes no longer strings than the reference allows', () => {
    const looser = operations.flatMap((o) =>
      [...o.theirs]
        .filter(([, t]) => t.maxLength !== undefined)
        .filter(([f, t]) => {
          const m = o.mine.get(f);
          return !m || !(m.bounded && (m.maxLength === undefined || m.maxLength <= t.maxLength!));
        })
        .map(([f, t]) => `${o.name}: ${f} (reference ${t.maxLength}, ours ${o.mine.get(f)?.maxLength ?? 'unbounded'})`),
    );
    expect(looser).toEqual([]);
  });
});
