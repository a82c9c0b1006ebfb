import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, isPageSize } from './pagination.ts';

describe('page sizes', () => {
  it('offers 10, 25, 50, 100 with 10 as default', () => {
    expect(PAGE_SIZES).toEqual([10, 25, 50, 100]);
    expect(DEFAULT_PAGE_SIZE).toBe(10);
  });

  it('accepts only the offered sizes', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(isPageSize(value)).toBe(
          value === 10 || value === 25 || value === 50 || value === 100,
        );
      }),
    );
  });
});
