/**
 * The page size each list screen remembers in local storage (spec part 1, sections 2 and 9).
 */
import { useCallback, useState } from 'react';
import { DEFAULT_PAGE_SIZE, isPageSize, type PageSize } from '@console/contracts';
import { defaultStorage, readItem, removeItem, writeItem } from './browser-storage';
import type { PageSizeKey } from './storage-keys';

/**
 * The stored page size when it is one of 10, 25, 50, 100. Anything else stored under the key is
 * removed, and the default 10 is returned.
 */
export function readPageSize(key: PageSizeKey, storage = defaultStorage()): PageSize {
  const raw = readItem(key, storage);
  if (raw === null) return DEFAULT_PAGE_SIZE;
  const size = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (isPageSize(size)) return size;
  removeItem(key, storage);
  return DEFAULT_PAGE_SIZE;
}

export function writePageSize(key: PageSizeKey, size: PageSize, storage = defaultStorage()): void {
  writeItem(key, String(size), storage);
}

/** The screen's page size and a setter that also stores it. */
export function usePageSize(key: PageSizeKey): [PageSize, (size: PageSize) => void] {
  const [state, setState] = useState(() => ({ key, size: readPageSize(key) }));
  // A different key (the component now shows another list) reads that list's size.
  const current = state.key === key ? state : { key, size: readPageSize(key) };
  if (current !== state) setState(current);

  const setSize = useCallback(
    (size: PageSize) => {
      writePageSize(key, size);
      setState({ key, size });
    },
    [key],
  );
  return [current.size, setSize];
}
