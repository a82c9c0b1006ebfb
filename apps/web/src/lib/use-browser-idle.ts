import { useEffect, useState } from 'react';

/**
 * False until the browser is first idle after mounting (at most `timeoutMs` later): for what a
 * screen needs only once it is in use, so its code loads after the screen is usable.
 */
export function useBrowserIdle(timeoutMs = 1000): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => setIdle(true), { timeout: timeoutMs });
      return () => window.cancelIdleCallback(handle);
    }
    // Safari has no requestIdleCallback.
    const timer = setTimeout(() => setIdle(true), Math.min(200, timeoutMs));
    return () => clearTimeout(timer);
  }, [timeoutMs]);
  return idle;
}
