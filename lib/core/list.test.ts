import { describe, expect, it } from 'vitest';
import { DomainError } from './errors';
import { decodePosition, encodePosition, fingerprintOf, keysetAfter, pageOf } from './list';

// The cursor of lib/core/list.ts: a position, and the count of the first page, signed and bound
// to the filters it was computed for.
describe('list cursor', () => {
  const at = new Date('2026-01-02T03:04:05.678Z');
  const fp = fingerprintOf({ status: 'COMPLETED' });

  it('round-trips a position and carries the count for the same filters only', () => {
    const c = encodePosition({ createdAt: at, id: 'Transaction:x', total: 1234 }, fp);
    expect(decodePosition(c, fp)).toEqual({ createdAt: at, id: 'Transaction:x', total: 1234 });
    // Other filters: the position holds, the count is computed again.
    expect(decodePosition(c, fingerprintOf({ status: 'FAILED' }))).toEqual({ createdAt: at, id: 'Transaction:x' });
    expect(fingerprintOf({ status: 'COMPLETED', type: undefined })).toBe(fp);
    expect(fingerprintOf({ status: 'COMPLETED' }, 'asc')).not.toBe(fp);
  });

  it('refuses a cursor whose carried count was altered', () => {
    const c = encodePosition({ createdAt: at, id: 'Transaction:x', total: 5 }, fp);
    const [payload, mac] = c.split('.');
    const forged = Buffer.from(JSON.stringify([at.toISOString(), 'Transaction:x', 5000, fp])).toString('base64url');
    expect(() => decodePosition(`${forged}.${mac}`, fp)).toThrow(DomainError);
    expect(() => decodePosition(`${payload}.${mac}x`, fp)).toThrow(DomainError);
    expect(() => decodePosition('not a cursor', fp)).toThrow(DomainError);
  });

  it('still reads the earlier unsigned cursor ([createdAt, id]) as a position without a count', () => {
    const old = Buffer.from(JSON.stringify([at.toISOString(), 'Customer:y'])).toString('base64url');
    expect(decodePosition(old, fp)).toEqual({ createdAt: at, id: 'Customer:y' });
  });

  it('bounds the scan at the cursor: createdAt <= X, ties broken by id', () => {
    expect(keysetAfter({ createdAt: at, id: 'b' })).toEqual({
      AND: [{ createdAt: { lte: at } }, { OR: [{ createdAt: { lt: at } }, { id: { lt: 'b' } }] }],
    });
    expect(keysetAfter({ createdAt: at, id: 'b' }, 'asc')).toEqual({
      AND: [{ createdAt: { gte: at } }, { OR: [{ createdAt: { gt: at } }, { id: { gt: 'b' } }] }],
    });
    expect(keysetAfter(undefined)).toEqual({});
  });

  it('answers hasMore from the extra row and puts the count in the next cursor', () => {
    const rows = [1, 2, 3].map((i) => ({ id: `r${i}`, createdAt: at }));
    const page = pageOf({ rows, limit: 2, total: 42, fingerprint: fp }, (r) => r.id);
    expect(page).toMatchObject({ data: ['r1', 'r2'], hasMore: true, totalCount: 42 });
    expect(decodePosition(page.nextCursor, fp)).toEqual({ createdAt: at, id: 'r2', total: 42 });
    const last = pageOf({ rows: rows.slice(0, 2), limit: 2, total: 2, fingerprint: fp }, (r) => r.id);
    expect(last).toEqual({ data: ['r1', 'r2'], hasMore: false, totalCount: 2 });
  });
});
