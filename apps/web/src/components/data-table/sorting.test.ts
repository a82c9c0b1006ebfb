import { describe, expect, it } from 'vitest';
import type { Row } from '@tanstack/react-table';
import { dateSorting, numberSorting, textSorting } from './sorting';

const row = (value: unknown) => ({ getValue: () => value }) as unknown as Row<unknown>;

function sortValues(
  values: unknown[],
  sorting: (a: Row<unknown>, b: Row<unknown>, id: string) => number,
  desc = false,
) {
  return values
    .map((value, index) => ({ value, index }))
    .sort((a, b) => (desc ? -1 : 1) * sorting(row(a.value), row(b.value), 'x') || a.index - b.index)
    .map((entry) => entry.value);
}

describe('DataTable sorting functions', () => {
  it('sorts text regardless of case and accents, numbers inside text by value', () => {
    expect(
      sortValues(['Zimbabwe', 'Åland Islands', 'afghanistan', 'Albania'], textSorting),
    ).toEqual(['afghanistan', 'Åland Islands', 'Albania', 'Zimbabwe']);
    expect(sortValues(['item 10', 'item 9'], textSorting)).toEqual(['item 9', 'item 10']);
  });

  it('puts missing values last ascending and first descending', () => {
    expect(sortValues([null, 3, undefined, 1], numberSorting)).toEqual([1, 3, null, undefined]);
    expect(sortValues([null, 3, undefined, 1], numberSorting, true)).toEqual([
      null,
      undefined,
      3,
      1,
    ]);
    expect(sortValues(['', 'b', 'a'], textSorting)).toEqual(['a', 'b', '']);
  });

  it('keeps the original order when every value is missing', () => {
    expect(sortValues([null, undefined, null], numberSorting)).toEqual([null, undefined, null]);
    expect(sortValues([null, undefined, null], dateSorting, true)).toEqual([null, undefined, null]);
  });

  it('sorts timestamps by time, whatever their offset', () => {
    expect(
      sortValues(
        ['2024-05-01T00:00:00Z', '2024-04-30T23:00:00-02:00', '2023-01-01T00:00:00Z'],
        dateSorting,
      ),
    ).toEqual(['2023-01-01T00:00:00Z', '2024-05-01T00:00:00Z', '2024-04-30T23:00:00-02:00']);
  });
});
