/**
 * What changed between two JSON values, key by key (issue 31, "What changed, side by side"):
 * objects and arrays are walked down to their plain values (text, numbers, booleans, null), so
 * that a tenant's namespaces, a document type's API references or tags, and a profile's form
 * values each show the one entry that changed rather than the whole value twice.
 */

/** Where a value sits: property names and array indexes, from the top. */
export type DiffPath = readonly (string | number)[];

/** A value on one side, or nothing there (a key added or removed). */
export type Side = { present: true; value: unknown } | { present: false };

export interface DiffRow {
  path: DiffPath;
  before: Side;
  after: Side;
  changed: boolean;
}

const ABSENT: Side = { present: false };
const present = (value: unknown): Side => ({ present: true, value });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects and arrays are walked into; anything else is a leaf. Empty ones are leaves too. */
function childrenOf(value: unknown): [string | number, unknown][] | undefined {
  if (Array.isArray(value)) {
    return value.length === 0 ? undefined : value.map((item, index) => [index, item]);
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    return keys.length === 0 ? undefined : keys.map((key) => [key, value[key]]);
  }
  return undefined;
}

/** Whether two JSON values are the same value (key order does not matter). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]))
    );
  }
  return false;
}

function walk(path: DiffPath, before: Side, after: Side, rows: DiffRow[]): void {
  const beforeChildren = before.present ? childrenOf(before.value) : undefined;
  const afterChildren = after.present ? childrenOf(after.value) : undefined;
  // Both sides of the same kind (objects, or arrays): compare key by key.
  const sameKind =
    beforeChildren !== undefined &&
    afterChildren !== undefined &&
    Array.isArray(before.present && before.value) === Array.isArray(after.present && after.value);
  // One side missing: walk the other, so an added object shows each of its keys.
  const walkInto =
    sameKind ||
    (beforeChildren !== undefined && !after.present) ||
    (afterChildren !== undefined && !before.present);
  if (!walkInto) {
    const changed =
      before.present !== after.present ||
      (before.present && after.present && !sameValue(before.value, after.value));
    rows.push({ path, before, after, changed });
    return;
  }
  const beforeMap = new Map(beforeChildren ?? []);
  const afterMap = new Map(afterChildren ?? []);
  const keys = [...beforeMap.keys()];
  for (const key of afterMap.keys()) if (!beforeMap.has(key)) keys.push(key);
  for (const key of keys) {
    walk(
      [...path, key],
      beforeMap.has(key) ? present(beforeMap.get(key)) : ABSENT,
      afterMap.has(key) ? present(afterMap.get(key)) : ABSENT,
      rows,
    );
  }
}

/**
 * Every plain value of `before` and `after` by its path, with whether it changed, in the order
 * of `before`'s keys and then the keys only `after` has. `null` or `undefined` for a side means
 * the record did not exist (a creation or a deletion): each value of the other side is listed.
 */
export function diffValues(before: unknown, after: unknown): DiffRow[] {
  const rows: DiffRow[] = [];
  walk(
    [],
    before == null ? ABSENT : present(before),
    after == null ? ABSENT : present(after),
    rows,
  );
  return rows;
}

/** A path as the panel shows it: `apiReferences.onfido`, `tags[1]`; the whole value is '(value)'. */
export function pathLabel(path: DiffPath): string {
  if (path.length === 0) return '(value)';
  return path
    .map((step, index) =>
      typeof step === 'number' ? `[${step}]` : index === 0 ? step : `.${step}`,
    )
    .join('');
}

/** A plain value as text: strings as they are, anything else as JSON. */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
