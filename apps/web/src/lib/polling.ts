/**
 * Queries that reload on a timer: a job's status until it is finished (the ratings import polls
 * every 1000 ms, spec part 2), a log that keeps itself current. Polling stops when `until` holds
 * for the data, when a load fails (the error is shown, not retried forever), and while the tab is
 * hidden; it ends with the component.
 */
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';

export interface Polling<TData> {
  intervalMs: number;
  /** The data is final (e.g. the job completed or failed): no more loads. */
  until?: (data: TData) => boolean;
}

/** The wait before the next load, or false to stop: TanStack Query's `refetchInterval`. */
export function nextPoll<TData>(
  state: { status: 'pending' | 'error' | 'success'; data: TData | undefined },
  { intervalMs, until }: Polling<TData>,
): number | false {
  if (state.status === 'error') return false;
  if (state.data !== undefined && until?.(state.data)) return false;
  return intervalMs;
}

export function usePollingQuery<TData, TKey extends QueryKey>({
  polling,
  ...options
}: Omit<UseQueryOptions<TData, Error, TData, TKey>, 'refetchInterval'> & {
  polling: Polling<TData>;
}) {
  return useQuery({
    ...options,
    refetchInterval: (query) => nextPoll(query.state, polling),
    refetchIntervalInBackground: false,
  });
}
