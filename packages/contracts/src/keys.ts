/**
 * Keys no client may give (docs/architecture.md, "Input"): `__proto__`, `constructor`,
 * `prototype` and the names of Object.prototype's members. Code that writes `object[key]` with
 * such a key reaches the prototype instead of an own property (`__proto__` replaces it), and code
 * that reads `object[key]` finds what every object inherits (`errors['constructor'] ??= []` finds
 * a function, whose `push` then fails with a 500). Every concept whose keys come from a client
 * refuses them, naming itself: any key of a JSON body or of the FormData part (`findJsonProblem`),
 * a storage name (`validateStorageName`), the field name of a submitted input or file part
 * (`reservedInputNameMessage`), an API reference's service name (`apiReferenceMapSchema`).
 */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
] as const;

const prototypeKeys: ReadonlySet<string> = new Set(PROTOTYPE_KEYS);

/** Whether `key` is one of PROTOTYPE_KEYS (exactly: `Constructor` is an ordinary key). */
export const isPrototypeKey = (key: string): boolean => prototypeKeys.has(key);

/** The refusal of a prototype key, naming what it was given for: 'A service name', ... */
export const prototypeKeyMessage = (name: string, key: string): string =>
  `${name} must not be ${key}: JavaScript objects reserve that name`;
