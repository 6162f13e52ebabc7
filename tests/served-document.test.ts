import { expect, inject, it } from 'vitest';
import { checkResponse } from './support/conformance';
import { ServedDocument } from './support/served-document';
import { newPlatform } from './support/api';

// Every response the suite sees is validated against the service's own served document (GET
// /openapi.json, fetched by the global setup), with or without the reference: a body that does
// not match its operation's schema fails the test that received it.
const served = () => ServedDocument.fromFile(inject('servedDocument'));
const error = { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'Use GET' };

it('is the document GET /openapi.json serves', async () => {
  const p = await newPlatform();
  const res = await p.api.get('/openapi.json');
  expect(res.status).toBe(200);
  expect(served().doc).toEqual(JSON.parse(res.text));
});

it("refuses a body that breaks its operation's schema: a wrong type, a missing field, an undeclared one", async () => {
  const p = await newPlatform();
  const res = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Served Check' });
  expect(res.status, res.text).toBe(201);
  const doc = served();
  expect(doc.check('GET', '/customers/{customerId}', 200, res.body)).toBe(true);
  const broken = [
    { ...res.body, id: 5 },
    { ...res.body, id: undefined },
    { ...res.body, nickname: 'not ours' },
  ];
  for (const body of broken)
    expect(() => doc.check('GET', '/customers/{customerId}', 200, JSON.parse(JSON.stringify(body)))).toThrow(
      /does not match the served document/,
    );
  // The test client's own check (tests/support/conformance.ts) applies it, reference or not.
  expect(() => checkResponse('GET', '/customers/{customerId}', 200, broken[2])).toThrow(/served document/);
});

it('holds an answer the document does not list to the error body, and names it', () => {
  const doc = served();
  expect(doc.check('GET', '/config', 418, error)).toBe(true);
  expect(() => doc.check('GET', '/config', 418, { error: 'nope' })).toThrow(/does not match the served document/);
  expect(doc.check('GET', '/config', 302, undefined)).toBe(false);
  expect(doc.take()).toEqual({
    responses: 1,
    pairs: ['GET /config 418'],
    unlisted: ['GET /config 418', 'GET /config 302'],
  });
});

it("takes a 405 for a method a described path does not take as the document's own answer", () => {
  const doc = served();
  expect(doc.check('PUT', '/config', 405, error)).toBe(true);
  expect(() => doc.check('PUT', '/config', 405, { error: 'nope' })).toThrow(/is not the error body/);
  expect(doc.check('GET', '/openapi.json', 200, { openapi: '3.1.0' })).toBe(true);
  expect(doc.take()).toEqual({ responses: 2, pairs: ['PUT /config 405', 'GET /openapi.json 200'], unlisted: [] });
});

it('holds an answer without a body to having none, and one with a body to having one', () => {
  const doc = served();
  expect(doc.check('DELETE', '/documents/{documentId}', 204, undefined)).toBe(true);
  expect(() => doc.check('DELETE', '/documents/{documentId}', 204, { deleted: true })).toThrow(
    /gives this answer none/,
  );
  expect(() => doc.check('GET', '/customers/{customerId}', 200, undefined)).toThrow(/has no JSON body/);
});
