import { describe, expect, it } from 'vitest';
import { mccCategory } from './mcc';

describe('mccCategory', () => {
  it('names common codes and falls back to the standard block', () => {
    expect(mccCategory('5814')).toBe('Fast food and coffee shops');
    expect(mccCategory('5411')).toBe('Grocery stores and supermarkets');
    expect(mccCategory('3058')).toBe('Airlines');
    expect(mccCategory('3501')).toBe('Lodging');
    expect(mccCategory('7299')).toBe('Retail');
    expect(mccCategory('9402')).toBe('Government services');
  });
  it('gives no category for a missing or malformed code', () => {
    expect(mccCategory(undefined)).toBeNull();
    expect(mccCategory('54')).toBeNull();
    expect(mccCategory('abcd')).toBeNull();
    expect(mccCategory('0000')).toBeNull();
  });
});
