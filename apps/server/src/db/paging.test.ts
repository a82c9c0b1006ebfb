import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planPage, walkDirection } from './paging.ts';

/** What a plan reads from `rows` (sorted), put back in the list's order. */
function readWith(rows: readonly number[], offset: number, limit: number): number[] {
  const plan = planPage(rows.length, offset, limit);
  if (!plan) return [];
  const walk = plan.reversed ? [...rows].reverse() : [...rows];
  const read = walk.slice(plan.offset, plan.offset + plan.limit);
  return plan.reversed ? read.reverse() : read;
}

describe('planPage', () => {
  it('reads from the start up to the middle, from the end past it', () => {
    expect(planPage(100, 0, 10)).toEqual({ offset: 0, limit: 10, reversed: false });
    expect(planPage(100, 40, 10)).toEqual({ offset: 40, limit: 10, reversed: false });
    expect(planPage(100, 50, 10)).toEqual({ offset: 40, limit: 10, reversed: true });
    expect(planPage(100, 90, 10)).toEqual({ offset: 0, limit: 10, reversed: true });
    expect(planPage(1_000_000, 999_990, 100)).toEqual({ offset: 0, limit: 10, reversed: true });
  });

  it('has no plan for a page past the end', () => {
    expect(planPage(0, 0, 10)).toBeNull();
    expect(planPage(10, 10, 10)).toBeNull();
    expect(planPage(10, 1e15, 10)).toBeNull();
  });

  it('always reads exactly the rows of the page, skipping at most half of the list', () => {
    fc.assert(
      fc.property(
        fc.nat(300),
        fc.nat(400),
        fc.integer({ min: 1, max: 120 }),
        (total, offset, limit) => {
          const rows = Array.from({ length: total }, (_, index) => index);
          expect(readWith(rows, offset, limit)).toEqual(rows.slice(offset, offset + limit));
          const plan = planPage(total, offset, limit);
          if (plan) expect(plan.offset).toBeLessThanOrEqual(Math.ceil(total / 2));
        },
      ),
    );
  });
});

describe('walkDirection', () => {
  it('turns the list order around for a reversed plan', () => {
    const forward = { offset: 0, limit: 1, reversed: false };
    const backward = { ...forward, reversed: true };
    expect(walkDirection(false, forward)).toBe('asc');
    expect(walkDirection(true, forward)).toBe('desc');
    expect(walkDirection(false, backward)).toBe('desc');
    expect(walkDirection(true, backward)).toBe('asc');
  });
});
