import { afterAll, beforeAll } from 'vitest';

/**
 * Makes a fixture once for the suite (beforeAll) and closes it after the suite (afterAll). The
 * answer reads it, so call it inside hooks and tests only: at import time there is none yet.
 */
export function useSuiteFixture<T extends { close(): Promise<void> }>(
  create: () => Promise<T>,
): () => T {
  let fixture: T | undefined;
  beforeAll(async () => {
    fixture = await create();
  });
  afterAll(async () => {
    await fixture?.close();
  });
  return () => {
    if (fixture === undefined)
      throw new Error('The suite fixture is read before beforeAll made it');
    return fixture;
  };
}
