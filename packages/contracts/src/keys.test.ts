import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPrototypeKey, PROTOTYPE_KEYS, prototypeKeyMessage } from './keys.ts';

describe('prototype keys', () => {
  it("are __proto__, constructor, prototype and every member of this runtime's Object.prototype", () => {
    expect([...PROTOTYPE_KEYS].sort()).toEqual(
      [...Object.getOwnPropertyNames(Object.prototype), 'prototype'].sort(),
    );
  });

  it('are matched exactly: any other text is an ordinary key', () => {
    const reserved = new Set<string>(PROTOTYPE_KEYS);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(...PROTOTYPE_KEYS),
          fc.constantFrom(...PROTOTYPE_KEYS).map((key) => key.toUpperCase()),
          fc.constantFrom(...PROTOTYPE_KEYS).map((key) => ` ${key}`),
          fc.string(),
        ),
        (key) => {
          expect(isPrototypeKey(key)).toBe(reserved.has(key));
          // What the rule protects: an ordinary key is never an inherited member of an object.
          if (!isPrototypeKey(key)) expect(key in {}).toBe(false);
        },
      ),
    );
  });

  it('are refused naming what they were given for', () => {
    expect(prototypeKeyMessage('A service name', 'constructor')).toBe(
      'A service name must not be constructor: JavaScript objects reserve that name',
    );
  });
});
