/**
 * The ratings import calls (spec part 2, section 7 "Ratings import") with their query keys, and
 * the reading of a CSV file in a Web Worker.
 */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  apiPath,
  ratingsImportApi,
  ratingsImportHistorySchema,
  ratingsImportJobSchema,
  ratingsImportStartedSchema,
  ratingsStatisticsSchema,
  storedRatingsPageSchema,
  type RatingsImportJob,
  type RatingsImportOptions,
  type RatingsRecord,
} from '@console/contracts';
import type { RatingsParseResult } from '@console/contracts/ratings-csv';
import { api, getParsed } from '@/lib/api-client';
import { useInvalidatingMutation } from '@/lib/invalidating-mutation';
import { offsetPageQuery, type OffsetPageRequest } from '@/lib/paging';
import { usePollingQuery } from '@/lib/polling';

export const ratingsQueryKey = ['fatf'] as const;
const statsQueryKey = [...ratingsQueryKey, 'stats'] as const;
const historyQueryKey = [...ratingsQueryKey, 'imports'] as const;

/** The spec's status polling interval. */
export const STATUS_POLL_MS = 1000;

export function useRatingsStatsQuery() {
  return useQuery({
    queryKey: statsQueryKey,
    queryFn: ({ signal }) =>
      getParsed(ratingsStatisticsSchema, apiPath(ratingsImportApi.stats), signal),
  });
}

export function useImportHistoryQuery(enabled: boolean) {
  return useQuery({
    queryKey: historyQueryKey,
    queryFn: ({ signal }) =>
      getParsed(ratingsImportHistorySchema, apiPath(ratingsImportApi.history), signal),
    enabled,
  });
}

async function startImport(input: {
  records: RatingsRecord[];
  options: RatingsImportOptions;
}): Promise<number> {
  const answer = await api.post<unknown>(apiPath(ratingsImportApi.start), input);
  return ratingsImportStartedSchema.parse(answer).importId;
}

export function useStartImportMutation() {
  return useMutation({ mutationFn: startImport });
}

export function useCancelImportMutation() {
  return useInvalidatingMutation(
    (id: number) => api.delete(apiPath(ratingsImportApi.cancel, { id })),
    ratingsQueryKey,
  );
}

const isFinished = (job: RatingsImportJob) =>
  job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled';

/** The job's status every second until it is finished, a call fails, or `id` is null. */
export function useImportStatusQuery(id: number | null) {
  return usePollingQuery({
    queryKey: [...ratingsQueryKey, 'import', id] as const,
    queryFn: ({ signal }) =>
      getParsed(ratingsImportJobSchema, apiPath(ratingsImportApi.status, { id: id ?? 0 }), signal),
    enabled: id !== null,
    polling: { intervalMs: STATUS_POLL_MS, until: isFinished },
  });
}

/** GET api/fatf/export, saved by the browser under the server's file name. */
export async function downloadExport(): Promise<void> {
  const blob = await api.getBlob(apiPath(ratingsImportApi.export));
  const today = new Date().toISOString().slice(0, 10);
  saveFile(blob, `fatf-data-${today}.xlsx`);
}

/** Hands `blob` to the browser as a download named `fileName`. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Reads a ratings CSV in a Web Worker, so a 10 MB file never freezes the page; where there is no
 * Worker (tests in jsdom) it is read here.
 */
export async function parseRatingsFile(file: File): Promise<RatingsParseResult> {
  const text = await file.text();
  if (typeof Worker === 'undefined') {
    const { parseRatingsCsv } = await import('@console/contracts/ratings-csv');
    return parseRatingsCsv(text);
  }
  const worker = new Worker(new URL('./parse-worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<RatingsParseResult>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<RatingsParseResult>) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message || 'Failed to parse file'));
      worker.postMessage(text);
    });
  } finally {
    worker.terminate();
  }
}

/** GET api/fatf/ratings?offset&limit: one page of the stored ratings, and the total. */
export function useStoredRatingsQuery(request: OffsetPageRequest) {
  return useQuery({
    queryKey: [...ratingsQueryKey, 'ratings', request] as const,
    queryFn: ({ signal }) =>
      getParsed(
        storedRatingsPageSchema,
        `${apiPath(ratingsImportApi.ratings)}?${offsetPageQuery(request)}`,
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}
