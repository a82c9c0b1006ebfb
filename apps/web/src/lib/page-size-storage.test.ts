import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { readPageSize, usePageSize, writePageSize } from './page-size-storage';
import { PAGE_SIZE_KEYS } from './storage-keys';

const KEY = PAGE_SIZE_KEYS.countries;

beforeEach(() => localStorage.clear());

describe('readPageSize', () => {
  it.each(['10', '25', '50', '100'])('gives the stored size %s', (stored) => {
    localStorage.setItem(KEY, stored);
    expect(readPageSize(KEY)).toBe(Number(stored));
    expect(localStorage.getItem(KEY)).toBe(stored);
  });

  it('gives the default 10 when nothing is stored, storing nothing', () => {
    expect(readPageSize(KEY)).toBe(10);
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it.each(['7', '20', '0', '-10', '25.5', '1e2', 'abc', '', 'null', '"25"'])(
    'discards and removes the invalid stored value %j',
    (stored) => {
      localStorage.setItem(KEY, stored);
      expect(readPageSize(KEY)).toBe(10);
      expect(localStorage.getItem(KEY)).toBeNull();
    },
  );

  it('keeps each screen apart', () => {
    localStorage.setItem(PAGE_SIZE_KEYS.events, '50');
    expect(readPageSize(PAGE_SIZE_KEYS.events)).toBe(50);
    expect(readPageSize(PAGE_SIZE_KEYS.tenants)).toBe(10);
  });
});

describe('writePageSize', () => {
  it('stores the size under the key', () => {
    writePageSize(KEY, 100);
    expect(localStorage.getItem(KEY)).toBe('100');
    expect(readPageSize(KEY)).toBe(100);
  });
});

describe('usePageSize', () => {
  it('starts from the stored size and stores a new one', () => {
    localStorage.setItem(KEY, '25');
    const { result } = renderHook(() => usePageSize(KEY));
    expect(result.current[0]).toBe(25);
    act(() => result.current[1](50));
    expect(result.current[0]).toBe(50);
    expect(localStorage.getItem(KEY)).toBe('50');
  });

  it('reads the size of another key when the key changes', () => {
    localStorage.setItem(PAGE_SIZE_KEYS.tenants, '100');
    const { result, rerender } = renderHook(({ key }) => usePageSize(key), {
      initialProps: { key: KEY as (typeof PAGE_SIZE_KEYS)[keyof typeof PAGE_SIZE_KEYS] },
    });
    expect(result.current[0]).toBe(10);
    rerender({ key: PAGE_SIZE_KEYS.tenants });
    expect(result.current[0]).toBe(100);
    act(() => result.current[1](25));
    expect(localStorage.getItem(PAGE_SIZE_KEYS.tenants)).toBe('25');
    expect(localStorage.getItem(KEY)).toBeNull();
  });
});
