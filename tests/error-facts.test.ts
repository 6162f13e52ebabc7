import { expect, it } from 'vitest';
import { DomainError } from '@/lib/core/errors';
import { claimLost } from '@/lib/core/idempotency';
import { InsufficientFunds } from '@/lib/ledger/service';
import { errorAnswer, methodNotAllowed } from '@/lib/http/endpoint';
import { EdgeError, stillInProgress } from '@/lib/http/errors';

// Domain errors state facts (issue 24, point 6); the edge alone turns them into HTTP: the status
// from its table, Retry-After from retryAfterSeconds, the retry hint from retryable or the code.
it('turns retryAfterSeconds into Retry-After, and leaves the body as the domain made it', () => {
  const err = new DomainError(
    'RATE_LIMITED',
    'Too many; retry in 7 s',
    { retryAfterSeconds: 7 },
    { retryAfterSeconds: 7 },
  );
  expect(err).not.toHaveProperty('headers');
  const a = errorAnswer(err);
  expect(a.status).toBe(429);
  expect(a.headers).toEqual({ 'retry-after': '7', 'x-should-retry': 'true' });
  expect(JSON.parse(a.text)).toEqual({
    status: 429,
    code: 'RATE_LIMITED',
    message: 'Too many; retry in 7 s',
    details: { retryAfterSeconds: 7 },
  });
});

it('answers a claim still in progress with 409, Retry-After 1 and a retry hint the code alone would not give', () => {
  for (const err of [claimLost(), stillInProgress('busy')]) {
    const a = errorAnswer(err);
    expect(a.status).toBe(409);
    expect(a.headers).toEqual({ 'retry-after': '1', 'x-should-retry': 'true' });
  }
  expect(errorAnswer(new DomainError('CONFLICT', 'duplicate')).headers).toEqual({ 'x-should-retry': 'false' });
});

it("keeps the edge's own headers on the edge's own refusals", async () => {
  const res = await methodNotAllowed(['GET', 'POST'])(
    new Request('http://x/api/2025-10-13/config', { method: 'PUT' }),
    {
      params: Promise.resolve({}),
    },
  );
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('GET, POST');
  expect(res.headers.get('retry-after')).toBeNull();
  const edge = new EdgeError('UNSUPPORTED_MEDIA_TYPE', 'no gzip', undefined, { 'accept-encoding': 'identity' });
  expect(errorAnswer(edge).headers).toEqual({ 'accept-encoding': 'identity', 'x-should-retry': 'false' });
});

// The domain's own code; on the wire the specification's enumerated 400 code it refines, with
// the domain's code as the reason (the reference's Error400 has no INSUFFICIENT_FUNDS).
it('answers the domain code INSUFFICIENT_FUNDS as 400 INVALID_INPUT with that reason', () => {
  const err = new InsufficientFunds('ledger-account');
  expect(err.code).toBe('INSUFFICIENT_FUNDS');
  const a = errorAnswer(err);
  expect(a.status).toBe(400);
  expect(a.headers).toEqual({ 'x-should-retry': 'false' });
  expect(a.text).toBe(
    '{"status":400,"code":"INVALID_INPUT","message":"Insufficient funds in the source account","details":{"reason":"INSUFFICIENT_FUNDS"}}',
  );
});
