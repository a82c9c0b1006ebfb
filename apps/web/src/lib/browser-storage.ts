/**
 * Local-storage access that never throws: storage can be missing (tests, server rendering) or
 * refuse access (privacy modes, quota). Callers treat a failed read as "nothing stored".
 */

export function defaultStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

export function readItem(key: string, storage = defaultStorage()): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Returns false when the value could not be stored. */
export function writeItem(key: string, value: string, storage = defaultStorage()): boolean {
  try {
    if (!storage) return false;
    storage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function removeItem(key: string, storage = defaultStorage()): void {
  try {
    storage?.removeItem(key);
  } catch {
    // Ignored: storage that refuses access is treated as empty everywhere.
  }
}

/** A stored JSON object's fields; undefined when the text is not JSON or not an object. */
export function parseJsonObject(raw: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}
