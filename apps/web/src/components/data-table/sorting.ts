/**
 * Sorting functions for DataTable columns whose values may be missing. TanStack Table's own
 * `sortUndefined: 'last'` compares two missing values inconsistently (both come out "greater"),
 * which scrambles a column where every value is missing; these treat a missing value (null,
 * undefined, '') as greater than any value, as PostgreSQL does: last ascending, first descending,
 * and equal to each other, so the table's tie-break (the original order) keeps them stable.
 */
import type { Row } from '@tanstack/react-table';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function isMissing(value: unknown): value is null | undefined | '' {
  return value === null || value === undefined || value === '';
}

function compareMissingLast<T>(
  a: T | null | undefined,
  b: T | null | undefined,
  compare: (a: T, b: T) => number,
): number {
  const aMissing = isMissing(a);
  const bMissing = isMissing(b);
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  return compare(a as T, b as T);
}

/** Text as people sort it: case and accents aside ('Åland Islands' after 'Afghanistan'). */
export function textSorting<TData>(rowA: Row<TData>, rowB: Row<TData>, columnId: string): number {
  return compareMissingLast<string>(
    rowA.getValue<string | null | undefined>(columnId),
    rowB.getValue<string | null | undefined>(columnId),
    (a, b) => collator.compare(a, b),
  );
}

export function numberSorting<TData>(rowA: Row<TData>, rowB: Row<TData>, columnId: string): number {
  return compareMissingLast<number>(
    rowA.getValue<number | null | undefined>(columnId),
    rowB.getValue<number | null | undefined>(columnId),
    (a, b) => a - b,
  );
}

/** ISO 8601 timestamps, by the time they stand for. */
export function dateSorting<TData>(rowA: Row<TData>, rowB: Row<TData>, columnId: string): number {
  return compareMissingLast<string>(
    rowA.getValue<string | null | undefined>(columnId),
    rowB.getValue<string | null | undefined>(columnId),
    (a, b) => (Date.parse(a) || 0) - (Date.parse(b) || 0),
  );
}
