import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffValues, pathLabel, sameValue, type DiffRow } from './diff';

const json = fc.jsonValue({ maxDepth: 3 });
/** Records as the audit log holds them: objects of JSON values. */
const record = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 5 });

const changedOnly = (rows: DiffRow[]) => rows.filter((row) => row.changed);

describe('diffValues', () => {
  it('compares nested values key by key', () => {
    const rows = diffValues(
      { name: 'Acme', apiReferences: { onfido: 'a', jumio: 'j' }, tags: ['x', 'y'] },
      { name: 'Acme', apiReferences: { onfido: 'b', jumio: 'j' }, tags: ['x'] },
    );
    expect(changedOnly(rows).map((row) => [pathLabel(row.path), row.before, row.after])).toEqual([
      ['apiReferences.onfido', { present: true, value: 'a' }, { present: true, value: 'b' }],
      ['tags[1]', { present: true, value: 'y' }, { present: false }],
    ]);
    expect(rows.filter((row) => !row.changed).map((row) => pathLabel(row.path))).toEqual([
      'name',
      'apiReferences.jumio',
      'tags[0]',
    ]);
  });

  it('lists every value of a created or deleted record as changed', () => {
    expect(diffValues(null, { a: 1, b: { c: 2 } })).toEqual([
      {
        path: ['a'],
        before: { present: false },
        after: { present: true, value: 1 },
        changed: true,
      },
      {
        path: ['b', 'c'],
        before: { present: false },
        after: { present: true, value: 2 },
        changed: true,
      },
    ]);
    expect(diffValues(null, null)).toEqual([
      { path: [], before: { present: false }, after: { present: false }, changed: false },
    ]);
  });

  it('treats a value that changes kind as one changed value', () => {
    expect(changedOnly(diffValues({ a: [1] }, { a: { 0: 1 } }))).toHaveLength(1);
    expect(changedOnly(diffValues({ a: 'x' }, { a: {} }))).toHaveLength(1);
  });

  it('finds no change between a value and itself', () => {
    fc.assert(
      fc.property(record, (value) => {
        expect(changedOnly(diffValues(value, structuredClone(value)))).toEqual([]);
      }),
    );
  });

  it('finds a change exactly when the values differ', () => {
    fc.assert(
      fc.property(record, record, (before, after) => {
        expect(changedOnly(diffValues(before, after)).length > 0).toBe(!sameValue(before, after));
      }),
    );
  });

  it('shows each side as it is: every leaf read back at its path', () => {
    const at = (value: unknown, path: readonly (string | number)[]) =>
      path.reduce<unknown>((node, step) => (node as Record<string | number, unknown>)[step], value);
    fc.assert(
      fc.property(record, record, (before, after) => {
        for (const row of diffValues(before, after)) {
          if (row.before.present) expect(at(before, row.path)).toEqual(row.before.value);
          if (row.after.present) expect(at(after, row.path)).toEqual(row.after.value);
        }
      }),
    );
  });

  it('is symmetric: swapping the sides swaps before and after', () => {
    // Rows are told apart by their whole path, not its label: keys '' within '' and '.' both
    // read "." (fast-check found that pair).
    const pathKey = (row: DiffRow) => JSON.stringify(row.path);
    fc.assert(
      fc.property(record, record, (before, after) => {
        const forward = changedOnly(diffValues(before, after)).map((row) => ({
          path: pathKey(row),
          before: row.before,
          after: row.after,
        }));
        const backward = changedOnly(diffValues(after, before)).map((row) => ({
          path: pathKey(row),
          before: row.after,
          after: row.before,
        }));
        const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
        expect([...backward].sort(byPath)).toEqual([...forward].sort(byPath));
      }),
      { examples: [[{ '': { '': 0 } }, { '.': 0 }]] },
    );
  });
});
