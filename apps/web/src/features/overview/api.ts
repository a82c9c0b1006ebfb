/** The dashboard overview's call (GET /api/overview) and its query, which refreshes itself. */
import { apiPath, overviewApi, overviewSchema, OVERVIEW_REFRESH_MS } from '@console/contracts';
import { getParsed } from '@/lib/api-client';
import { usePollingQuery } from '@/lib/polling';

export const overviewQueryKey = ['overview'] as const;

/** The overview, asked again every OVERVIEW_REFRESH_MS while the dashboard is open and visible. */
export function useOverviewQuery() {
  return usePollingQuery({
    queryKey: overviewQueryKey,
    queryFn: ({ signal }) => getParsed(overviewSchema, apiPath(overviewApi.read), signal),
    polling: { intervalMs: OVERVIEW_REFRESH_MS },
  });
}
