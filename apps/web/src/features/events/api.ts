/**
 * The events calls (spec part 1, section 7 "Events") with their query keys, and the text of a
 * failed reset or test event (section 8).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  apiPath,
  type EventList,
  eventListSchema,
  eventsApi,
  type EventSortOrder,
  type PageSize,
  testEventResultSchema,
} from '@console/contracts';
import { ApiError, api, getParsed } from '@/lib/api-client';
import { useInvalidatingMutation } from '@/lib/invalidating-mutation';
import { setCursorParams, type PageCursor } from '@/lib/paging';

/** What the events screen asks for: one page of the log, filtered and ordered. */
export interface EventsRequest {
  /** 1-based. */
  page: number;
  pageSize: PageSize;
  sortOrder: EventSortOrder;
  unprocessedOnly: boolean;
  erroredOnly: boolean;
  /** Blank: every name. */
  eventName: string;
  /** Previous / Next: the row the page steps from. */
  cursor: PageCursor;
}

export const eventsQueryKey = ['events'] as const;

/** The query string of GET api/events; a blank event name is left out. */
export function eventsSearchParams(request: EventsRequest): URLSearchParams {
  const params = new URLSearchParams({
    page: String(request.page),
    pageSize: String(request.pageSize),
    sortOrder: request.sortOrder,
    unprocessedOnly: String(request.unprocessedOnly),
    erroredOnly: String(request.erroredOnly),
  });
  const eventName = request.eventName.trim();
  if (eventName !== '') params.set('eventName', eventName);
  setCursorParams(params, request.cursor);
  return params;
}

export async function fetchEvents(
  request: EventsRequest,
  signal?: AbortSignal,
): Promise<EventList> {
  return getParsed(
    eventListSchema,
    `${apiPath(eventsApi.list)}?${eventsSearchParams(request).toString()}`,
    signal,
  );
}

/**
 * POST /api/events/{id}/reset (staff): the worker's record goes back to waiting. A refusal is
 * the screen's to report ('HTTP error! status: 403'), so it does not sign out.
 */
export async function resetEvent(id: number, workerName?: string): Promise<void> {
  await api.post<unknown>(
    apiPath(eventsApi.reset, { id }),
    workerName ? { workerName } : undefined,
    {
      skipAuthRedirect: true,
    },
  );
}

/** POST /api/events/test (staff): records a 'TestEvent'; answers its id. */
export async function createTestEvent(): Promise<{ id: number }> {
  return testEventResultSchema.parse(
    await api.post<unknown>(apiPath(eventsApi.test), undefined, { skipAuthRedirect: true }),
  );
}

export function useEventsQuery(request: EventsRequest) {
  return useQuery({
    queryKey: [...eventsQueryKey, request],
    queryFn: ({ signal }) => fetchEvents(request, signal),
    // The page on screen stays while the next one (or the next filter) loads.
    placeholderData: keepPreviousData,
  });
}

export function useResetEventMutation() {
  return useInvalidatingMutation(
    ({ id, workerName }: { id: number; workerName?: string }) => resetEvent(id, workerName),
    eventsQueryKey,
  );
}

export function useCreateTestEventMutation() {
  return useInvalidatingMutation(createTestEvent, eventsQueryKey);
}

/** Spec 8: a failed reset or test event says 'HTTP error! status: {status}'. */
export function eventCallErrorText(error: unknown, t: TFunction): string {
  const status = error instanceof ApiError && error.status !== undefined ? error.status : 'N/A';
  return t('events.httpError', { status });
}
