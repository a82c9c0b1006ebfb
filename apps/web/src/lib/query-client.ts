/**
 * The TanStack Query client of the app, with defaults for an administration console.
 */
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/**
 * Retry a failed query once, except a 4xx answer: the server said no (not found, forbidden,
 * invalid), and asking again gives the same answer.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status !== undefined) {
    if (error.status >= 400 && error.status < 500) return false;
  }
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetryQuery,
        // Admins switch windows often; lists reload on mount, after a change, and on Refresh.
        refetchOnWindowFocus: false,
      },
      // A write is never repeated on its own: the user sees the failure and decides.
      mutations: { retry: false },
    },
  });
}
