import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

// The service's own OpenAPI document, as GET /openapi.json serves it (generated from the zod
// schemas of every endpoint, lib/http/openapi.ts). The global setup fetches it once per run and
// writes it to a file; every response the suite sees is validated against it, whether or not the
// reference document is present, so that no run checks nothing.

type Json = Record<string, unknown>;

export interface ServedTally {
  responses: number;
  pairs: Set<string>;
  /** Operation/status pairs the document does not list (error statuses still validated). */
  unlisted: Set<string>;
}

export class ServedDocument {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction | 'unlisted' | 'no-body'>();
  private errorValidator: ValidateFunction | undefined;
  readonly tally: ServedTally = { responses: 0, pairs: new Set(), unlisted: new Set() };

  constructor(readonly doc: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    // zod writes these OpenAPI type hints as formats; the type itself is what is checked.
    for (const f of ['int32', 'int64', 'float', 'double']) this.ajv.addFormat(f, true);
  }

  static fromFile(file: string): ServedDocument {
    return new ServedDocument(JSON.parse(readFileSync(file, 'utf8')) as Json);
  }

  private operation(method: string, template: string): Json | undefined {
    return ((this.doc.paths as Json)[template] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
  }

  /** The error body schema the document gives its error answers (every operation lists 500). */
  private errorSchema(): ValidateFunction {
    if (this.errorValidator) return this.errorValidator;
    for (const item of Object.values(this.doc.paths as Record<string, Json>))
      for (const op of Object.values(item) as Json[]) {
        const schema = jsonSchemaOf((op.responses as Json | undefined)?.['500'] as Json | undefined);
        if (schema) return (this.errorValidator = this.ajv.compile(schema));
      }
    throw new Error('conformance: the served document lists no error answer');
  }

  private pathKnown(template: string): boolean {
    return Boolean((this.doc.paths as Record<string, Json>)[template]);
  }

  private validatorFor(method: string, template: string, status: number) {
    const key = `${method} ${template} ${status}`;
    const known = this.validators.get(key);
    if (known) return known;
    // A method the document does not describe (a 405, or a route outside the generated ones such
    // as GET /openapi.json itself) counts as an unlisted answer.
    const response = (this.operation(method, template)?.responses as Json | undefined)?.[String(status)] as
      Json | undefined;
    const schema = jsonSchemaOf(response);
    let v: ValidateFunction | 'unlisted' | 'no-body';
    if (schema) v = this.ajv.compile(schema);
    else if (response) v = 'no-body';
    else v = 'unlisted';
    this.validators.set(key, v);
    return v;
  }

  /**
   * Throws when `body` does not match the document's schema for this operation and status.
   * `body` is undefined for an answer without a JSON body. Returns whether a schema was applied.
   */
  check(method: string, template: string, status: number, body: unknown): boolean {
    const pair = `${method} ${template} ${status}`;
    let v = this.validatorFor(method, template, status);
    // A method the path does not take is answered 405 with the error body: the document lists the
    // methods a path takes, so that answer is the document's own statement, not an omission.
    if (v === 'unlisted' && status === 405 && this.pathKnown(template) && !this.operation(method, template)) {
      if (body === undefined) throw new Error(`conformance: ${pair} has no JSON body`);
      if (!this.errorSchema()(plainJson(body))) throw new Error(`conformance: ${pair} is not the error body`);
      this.count(pair);
      return true;
    }
    if (v === 'unlisted') {
      this.tally.unlisted.add(pair);
      // An error status the operation does not list still has to be the one error body.
      if (status < 400 || body === undefined) return false;
      v = this.errorSchema();
    }
    if (v === 'no-body') {
      if (body !== undefined)
        throw new Error(`conformance: ${pair} has a JSON body, but the served document gives this answer none`);
      this.count(pair);
      return true;
    }
    if (body === undefined) throw new Error(`conformance: ${pair} has no JSON body; the served document gives one`);
    const plain = plainJson(body);
    if (!v(plain))
      throw new Error(
        `conformance: ${pair} does not match the served document (GET /openapi.json):\n  ${problemsOf(v).join('\n  ')}\nbody: ${JSON.stringify(plain).slice(0, 1500)}`,
      );
    this.count(pair);
    return true;
  }

  private count(pair: string) {
    this.tally.responses++;
    this.tally.pairs.add(pair);
  }

  /** The tally so far, emptied (each test file's worker writes its share). */
  take() {
    const out = {
      responses: this.tally.responses,
      pairs: [...this.tally.pairs],
      unlisted: [...this.tally.unlisted],
    };
    this.tally.responses = 0;
    this.tally.pairs.clear();
    this.tally.unlisted.clear();
    return out;
  }
}

function jsonSchemaOf(response: Json | undefined): Json | undefined {
  return ((response?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as
    Json | undefined;
}

/** bigints validate as integers: a plain number copy is enough for schema purposes. */
export const plainJson = (body: unknown): unknown =>
  JSON.parse(JSON.stringify(body, (_k, val) => (typeof val === 'bigint' ? Number(val) : val)));

export const problemsOf = (v: ValidateFunction) =>
  (v.errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
