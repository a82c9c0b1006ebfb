import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';

/** A function called at most once per `intervalMs`, however often it is asked to run. */
export interface Throttled<TArgs extends unknown[]> {
  (...args: TArgs): void;
  /** Drops a call still waiting (the component that owns it went away). */
  cancel: () => void;
}

/**
 * Throttles `run` with a leading and a trailing call: the first call runs at once; calls within
 * `intervalMs` of the last run wait for the end of the interval and then run once, with the
 * arguments of the latest.
 */
export function throttle<TArgs extends unknown[]>(
  run: (...args: TArgs) => void,
  intervalMs: number,
): Throttled<TArgs> {
  let lastRun = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waiting: TArgs | undefined;

  const runNow = (args: TArgs) => {
    lastRun = Date.now();
    run(...args);
  };

  const throttled = (...args: TArgs) => {
    const wait = lastRun + intervalMs - Date.now();
    if (wait <= 0 && timer === undefined) {
      runNow(args);
      return;
    }
    waiting = args;
    timer ??= setTimeout(
      () => {
        timer = undefined;
        const latest = waiting;
        waiting = undefined;
        if (latest) runNow(latest);
      },
      Math.max(wait, 0),
    );
  };
  throttled.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    waiting = undefined;
  };
  return throttled;
}

/**
 * `run` throttled (`throttle`) for a component: stable across renders, always running the
 * latest `run` given, and dropping a waiting call when the component goes away.
 */
export function useThrottled<TArgs extends unknown[]>(
  run: (...args: TArgs) => void,
  intervalMs: number,
): (...args: TArgs) => void {
  const latest = useRef(run);
  useLayoutEffect(() => {
    latest.current = run;
  });
  const throttled = useRef<Throttled<TArgs> | null>(null);
  useEffect(() => () => throttled.current?.cancel(), []);
  return useCallback(
    (...args: TArgs) => {
      throttled.current ??= throttle(
        (...latestArgs: TArgs) => latest.current(...latestArgs),
        intervalMs,
      );
      throttled.current(...args);
    },
    [intervalMs],
  );
}
