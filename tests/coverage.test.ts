import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { API_BASE } from '@/lib/core/mode';
import { basic, dispatch, newPlatform, type TestPlatform } from './support/api';
import { describeWithReference } from './support/needs-reference';

// Every operation of the reference is implemented: walks the reference's paths and methods and
// sends each one (placeholder ids, an empty body) to the app's router. An operation answered by
// the catch-all route ("No operation ...") or by a missing method (405) fails the test, and so does
// any 5xx: a wrong or unknown id and an empty body must be clear 4xx errors.
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function operations(file: string): { method: string; path: string }[] {
  const doc = parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path })),
  );
}

describeWithReference('openapi.yaml', 'the whole reference is implemented', (file) => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
  });

  it('answers each of the reference operations by its own route, never the catch-all, a 405 or a 5xx', async () => {
    const ops = operations(file);
    expect(ops.length).toBe(153);
    const problems: string[] = [];
    for (const { method, path } of ops) {
      const url = `http://localhost${API_BASE}${path.replace(/\{[^}]+\}/g, 'Probe:00000000-0000-4000-8000-000000000000')}`;
      const headers: Record<string, string> = { authorization: basic(p.credentials) };
      const hasBody = method !== 'GET' && method !== 'DELETE';
      if (hasBody) headers['content-type'] = 'application/json';
      const { res, template } = await dispatch(new Request(url, { method, headers, body: hasBody ? '{}' : undefined }));
      const text = await res.text();
      if (template === '/*' || /No operation/.test(text)) problems.push(`${method} ${path}: catch-all`);
      else if (res.status === 405) problems.push(`${method} ${path}: 405`);
      else if (res.status >= 500) problems.push(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });
});
