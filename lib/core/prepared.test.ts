import { describe, expect, it } from 'vitest';
import { kysely } from './kysely';
import { prepared } from './prepared';

// Fixed-shape statements compile once and take each call's values in their placeholders' places.
describe('prepared', () => {
  const byId = prepared((p: { platformId: string; id: string; limit: number }) =>
    kysely
      .selectFrom('Customer')
      .selectAll()
      .where('id', '=', p.id)
      .where('customerType', '=', 'INDIVIDUAL')
      .where('platformId', '=', p.platformId)
      .limit(p.limit),
  );

  it('gives the text Kysely compiles, with the call values where the placeholders were', () => {
    const direct = kysely
      .selectFrom('Customer')
      .selectAll()
      .where('id', '=', 'Customer:1')
      .where('customerType', '=', 'INDIVIDUAL')
      .where('platformId', '=', 'Platform:a')
      .limit(5)
      .compile();
    const first = byId({ platformId: 'Platform:a', id: 'Customer:1', limit: 5 }).compile(kysely);
    expect(first.sql).toBe(direct.sql);
    expect(first.parameters).toEqual(direct.parameters);
    const second = byId({ platformId: 'Platform:b', id: 'Customer:2', limit: 9 }).compile(kysely);
    expect(second.sql).toBe(direct.sql);
    expect(second.parameters).toEqual(['Customer:2', 'INDIVIDUAL', 'Platform:b', 9]);
  });

  it('refuses a statement that does not place a value it names as a parameter of its own', () => {
    const unused = prepared((p: { id: string; other: string }) => {
      void p.other;
      return kysely.selectFrom('Customer').selectAll().where('id', '=', p.id);
    });
    expect(() => unused({ id: 'a', other: 'b' }).compile(kysely)).toThrow(/other is not a parameter/);
  });
});
