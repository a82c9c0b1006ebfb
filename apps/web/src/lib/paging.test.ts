import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clampPage,
  cursorTowards,
  pageAfterDelete,
  pageCount,
  pageItems,
  showingRange,
} from './paging';

const pageSize = fc.constantFrom(10, 25, 50, 100, 1, 3, 7);
const items = fc.array(fc.integer(), { maxLength: 400 });

describe('pageCount', () => {
  it.each([
    [0, 10, 1],
    [1, 10, 1],
    [10, 10, 1],
    [11, 10, 2],
    [100, 25, 4],
    [101, 25, 5],
  ])('%i items of %i per page make %i pages', (total, size, pages) => {
    expect(pageCount(total, size)).toBe(pages);
  });

  it('is at least 1 and enough pages for every item', () => {
    fc.assert(
      fc.property(fc.nat(10_000), pageSize, (total, size) => {
        const pages = pageCount(total, size);
        expect(pages).toBeGreaterThanOrEqual(1);
        expect(pages * size).toBeGreaterThanOrEqual(total);
        expect((pages - 1) * size).toBeLessThan(Math.max(total, 1));
      }),
    );
  });
});

describe('clampPage', () => {
  it.each([
    [0, 3, 1],
    [-2, 3, 1],
    [2, 3, 2],
    [5, 3, 3],
    [1, 0, 1],
    [Number.NaN, 3, 1],
  ])('page %d of %d becomes %d', (page, pages, expected) => {
    expect(clampPage(page, pages)).toBe(expected);
  });
});

describe('pageItems', () => {
  it('gives the items of a 1-based page', () => {
    const list = Array.from({ length: 23 }, (_, i) => i + 1);
    expect(pageItems(list, 1, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pageItems(list, 3, 10)).toEqual([21, 22, 23]);
    expect(pageItems(list, 4, 10)).toEqual([]);
  });

  it('never gives more than a page size', () => {
    fc.assert(
      fc.property(items, fc.integer({ min: -5, max: 50 }), pageSize, (list, page, size) => {
        expect(pageItems(list, page, size).length).toBeLessThanOrEqual(size);
      }),
    );
  });

  it('covers every item exactly once, in order, across the pages', () => {
    fc.assert(
      fc.property(items, pageSize, (list, size) => {
        const pages = pageCount(list.length, size);
        const seen = Array.from({ length: pages }, (_, i) => pageItems(list, i + 1, size)).flat();
        expect(seen).toEqual(list);
        // Only the last page may be short; the page after the last is empty.
        for (let page = 1; page < pages; page++) {
          expect(pageItems(list, page, size)).toHaveLength(size);
        }
        expect(pageItems(list, pages + 1, size)).toEqual([]);
      }),
    );
  });
});

describe('pageAfterDelete', () => {
  it.each([
    [3, 1, 2],
    [3, 2, 3],
    [1, 1, 1],
    [2, 10, 2],
  ])('on page %i with %i items, deleting one shows page %i', (page, count, expected) => {
    expect(pageAfterDelete(page, count)).toBe(expected);
  });

  it('shows the page that now holds the following items, never below 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), pageSize, fc.nat(), (total, size, pick) => {
        const list = Array.from({ length: total }, (_, i) => i);
        const page = (pick % pageCount(total, size)) + 1;
        const onPage = pageItems(list, page, size);
        const deleted = onPage[onPage.length - 1]!;
        const after = list.filter((item) => item !== deleted);
        const next = pageAfterDelete(page, onPage.length);
        expect(next).toBeGreaterThanOrEqual(1);
        expect(next).toBeLessThanOrEqual(pageCount(after.length, size));
        if (after.length > 0) expect(pageItems(after, next, size).length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('showingRange', () => {
  it.each([
    [1, 10, 0, 0, 0],
    [1, 10, 5, 1, 5],
    [2, 10, 25, 11, 20],
    [3, 10, 25, 21, 25],
    [9, 10, 25, 21, 25],
  ])('page %i of size %i with %i entries shows %i to %i', (page, size, total, from, to) => {
    expect(showingRange(page, size, total)).toEqual({ from, to });
  });

  it('agrees with the items of the page', () => {
    fc.assert(
      fc.property(items, fc.integer({ min: 1, max: 50 }), pageSize, (list, page, size) => {
        const current = clampPage(page, pageCount(list.length, size));
        const shown = pageItems(list, current, size).length;
        const { from, to } = showingRange(page, size, list.length);
        expect(to - from + (shown === 0 ? 0 : 1)).toBe(shown);
      }),
    );
  });
});

describe('cursorTowards', () => {
  const shown = [{ id: 9 }, { id: 7 }, { id: 4 }];
  it.each([
    ['Next', 2, 3, shown, { after: 4 }],
    ['Previous', 3, 2, shown, { before: 9 }],
    ['Previous to page 1 (the top, by number)', 2, 1, shown, {}],
    ['a jump', 2, 5, shown, {}],
    ['Next with no rows on screen', 2, 3, undefined, {}],
    ['Next from an empty page', 2, 3, [], {}],
  ] as const)('%s', (_name, page, next, rows, cursor) => {
    expect(cursorTowards(page, next, rows)).toEqual(cursor);
  });
});
