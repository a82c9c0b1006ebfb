import { useEffect, useState } from 'react';

/**
 * The value once it has not changed for `delayMs` (the event-name filter waits 300 ms, the email
 * template preview 500 ms).
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
