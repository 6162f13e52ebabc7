import { describe, expect, it, vi } from 'vitest';
import { DomainError } from './errors';
import { InsufficientFunds } from '../ledger/service';
import { errorResponse, toDomainError } from '../http/endpoint';

// A production build can hold two copies of lib/core/errors.ts (the start-up chunk that builds the
// ports, and a route's chunk): the standalone production server answered 500 to a quote refused by
// the unconnected rates adapter, its DomainError being of the other copy. A second copy is made
// here the same way, by loading the module again.
describe('DomainError across copies of its module', () => {
  it('an error of another copy is a DomainError; a subclass keeps its own check', async () => {
    vi.resetModules();
    const other = await import('./errors');
    expect(other.DomainError).not.toBe(DomainError);
    const foreign = new other.DomainError('QUOTE_REQUEST_FAILED', 'no rate', {
      reason: 'RATES_PROVIDER_NOT_CONNECTED',
    });
    expect(foreign instanceof DomainError).toBe(true);
    expect(new DomainError('CONFLICT', 'x') instanceof other.DomainError).toBe(true);
    expect(new Error('plain') instanceof DomainError).toBe(false);
    expect({ code: 'CONFLICT', message: 'look-alike' } instanceof DomainError).toBe(false);
    expect(new DomainError('CONFLICT', 'x') instanceof InsufficientFunds).toBe(false);
  });

  it("the edge answers another copy's error with its own code and status, not a 500", async () => {
    vi.resetModules();
    const other = await import('./errors');
    const thrown = new other.DomainError('QUOTE_REQUEST_FAILED', 'No exchange-rate provider is connected', {
      reason: 'RATES_PROVIDER_NOT_CONNECTED',
    });
    const res = errorResponse(toDomainError(thrown, new Request('http://localhost/api/2025-10-13/quotes')));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 400, code: 'QUOTE_REQUEST_FAILED' });
  });
});
