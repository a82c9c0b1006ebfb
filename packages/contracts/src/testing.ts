/**
 * Checks that tests of several contracts share. Test support only: index.ts does not export it,
 * so neither the server nor the web app can import it through '@console/contracts'.
 */
import fc from 'fast-check';
import { expect } from 'vitest';

/**
 * Property check of a list normaliser (tags, namespaces): on any list of up to `maxLength`-grapheme
 * strings it is idempotent and yields each item once, none empty, each trimmed, and each passing
 * `checkItem` (what the normaliser adds, such as lower case).
 */
export function expectNormalizesLists(
  normalize: (items: string[]) => string[],
  maxLength: number,
  checkItem: (item: string) => void = () => {},
): void {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength })), (items) => {
      const normalized = normalize(items);
      expect(normalize(normalized)).toEqual(normalized);
      expect(new Set(normalized).size).toBe(normalized.length);
      for (const item of normalized) {
        expect(item).not.toBe('');
        expect(item).toBe(item.trim());
        checkItem(item);
      }
    }),
  );
}
