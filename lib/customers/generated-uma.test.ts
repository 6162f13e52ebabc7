import { describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { newPlatform } from '@/tests/support/api';

// Generated UMA addresses draw a random suffix; the suffix is made to repeat here to show that a
// taken address makes the service draw again instead of refusing an address nobody asked for.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, randomBytes: vi.fn(actual.randomBytes) };
});

describe('generated UMA addresses', () => {
  it('draws another suffix when the generated address is taken', async () => {
    const p = await newPlatform();
    const taken = await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Twin Person',
      umaAddress: '$twin.person.0000abcd',
    });
    expect(taken.status, taken.text).toBe(201);
    const real = vi.mocked(randomBytes).getMockImplementation() as unknown as (n: number) => Buffer;
    vi.mocked(randomBytes)
      .mockImplementationOnce(((n: number) =>
        n === 4 ? Buffer.from('0000abcd', 'hex') : real(n)) as typeof randomBytes)
      .mockImplementationOnce(((n: number) =>
        n === 4 ? Buffer.from('0000abcd', 'hex') : real(n)) as typeof randomBytes);
    const second = await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Twin Person' });
    expect(second.status, second.text).toBe(201);
    expect(second.body.umaAddress).toMatch(/^\$twin\.person\.[0-9a-f]{8}@/);
    expect(second.body.umaAddress).not.toBe(taken.body.umaAddress);
    // A requested address that is taken is still the caller's conflict.
    const again = await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Twin Person',
      umaAddress: '$twin.person.0000abcd',
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('UMA_ADDRESS_EXISTS');
  });
});
