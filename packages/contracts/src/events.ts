import { z } from 'zod';
import { INT8_ID_MAX, pathIdSchema } from './ids.ts';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './pagination.ts';
import { apiRoute } from './api.ts';
import { exportQuerySchema } from './exports.ts';
import { text } from './text.ts';

/**
 * The event log (spec part 1: "Events screen", section 3 Event, section 4 status badge and reset,
 * section 7 Events), shared by the events screen and the server.
 */

/** Longest event name recorded, and longest `eventName` filter accepted. */
export const EVENT_NAME_MAX_LENGTH = 100;
/** The largest page GET api/events answers: a larger `pageSize` is lowered to it. */
export const EVENT_PAGE_SIZE_MAX = Math.max(...PAGE_SIZES);
export const EVENT_SORT_ORDERS = ['desc', 'asc'] as const;
export type EventSortOrder = (typeof EVENT_SORT_ORDERS)[number];
/** The event POST /api/events/test records. */
export const TEST_EVENT_NAME = 'TestEvent';

/** A query-string value that is absent or blank counts as not given. */
export function queryText(raw: string | undefined): string | undefined {
  const text = raw?.trim() ?? '';
  return text === '' ? undefined : text;
}

function wholeNumberParam(field: string, min: number) {
  const message = `${field} must be a whole number of at least ${min}`;
  return z
    .string({ error: message })
    .optional()
    .transform((raw, ctx) => {
      const text = queryText(raw);
      if (text === undefined) return undefined;
      const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
      if (!(value >= min)) {
        ctx.issues.push({ code: 'custom', input: raw, message });
        return z.NEVER;
      }
      return value;
    });
}

/**
 * `page` and `pageSize` of the page-numbered lists (events, audit log): 1-based, 10 by default,
 * a larger size lowered to the largest offered. Previous and Next send the row the step starts
 * from, `before` or `after` (a keyset page: at any depth it costs what the first page costs, and
 * rows recorded meanwhile do not shift it); `page` then only numbers it. Without one, or when that
 * row is gone, the page is found by its number.
 */
export const pageNumberQueryShape = {
  after: pathIdSchema('after', INT8_ID_MAX)
    .optional()
    .describe('Next: the id of the last row of the page before; this page is the rows after it'),
  before: pathIdSchema('before', INT8_ID_MAX)
    .optional()
    .describe(
      'Previous: the id of the first row of the page after; this page is the rows before it',
    ),
  page: wholeNumberParam('page', 1)
    .transform((page) => page ?? 1)
    .describe('1-based page number (default 1)'),
  pageSize: wholeNumberParam('pageSize', 1)
    .transform((size) => Math.min(size ?? DEFAULT_PAGE_SIZE, EVENT_PAGE_SIZE_MAX))
    .describe(
      `Rows per page: ${PAGE_SIZES.join(', ')} (default ${DEFAULT_PAGE_SIZE}; more than ${EVENT_PAGE_SIZE_MAX} is lowered to ${EVENT_PAGE_SIZE_MAX})`,
    ),
};

/**
 * The total of the page-numbered lists (events, audit log): counted exactly up to this many
 * matching rows; beyond it the planner's estimate, flagged `totalIsEstimate`, which the screens
 * show as "about N". An exact count of 10^7 rows takes seconds, and nobody pages through ten
 * thousand rows: they narrow the filters (docs/audit.md and docs/events.md, "Totals").
 */
export const EXACT_TOTAL_MAX = 10_000;

/** `totalCount` and `totalIsEstimate` of a page-numbered list's answer. */
export function pageNumberTotalShape(rows: string) {
  return {
    totalCount: z.number().int().describe(`${rows} matching the filters, on every page`),
    totalIsEstimate: z
      .boolean()
      .describe(`totalCount is the planner's estimate: more than ${EXACT_TOTAL_MAX} rows match`),
  };
}

/** A page-numbered list's query names at most one row to step from. */
export function refinePageCursor(
  query: { after?: number | undefined; before?: number | undefined },
  ctx: z.RefinementCtx,
) {
  if (query.after !== undefined && query.before !== undefined) {
    ctx.issues.push({
      code: 'custom',
      input: query,
      path: ['before'],
      message: 'after and before cannot be combined',
    });
  }
}

/** 'true' or 'false' (any letter case) in a query string; absent or blank is false. */
function booleanParam(field: string) {
  const message = `${field} must be true or false`;
  return z
    .string({ error: message })
    .optional()
    .transform((raw, ctx) => {
      const text = queryText(raw)?.toLowerCase();
      if (text === undefined || text === 'false') return false;
      if (text === 'true') return true;
      ctx.issues.push({ code: 'custom', input: raw, message });
      return z.NEVER;
    });
}

/** The filters and order of GET api/events, its export's too. */
const eventListFilters = {
  sortOrder: z
    .string({ error: 'sortOrder must be desc or asc' })
    .optional()
    .transform((raw, ctx): EventSortOrder => {
      const text = queryText(raw)?.toLowerCase() ?? 'desc';
      if (text === 'desc' || text === 'asc') return text;
      ctx.issues.push({ code: 'custom', input: raw, message: 'sortOrder must be desc or asc' });
      return z.NEVER;
    })
    .describe('By creation time: desc (newest first, default) or asc'),
  unprocessedOnly: booleanParam('unprocessedOnly').describe(
    'Only events not processed yet by every worker (errored ones included)',
  ),
  erroredOnly: booleanParam('erroredOnly').describe('Only events a worker failed'),
  eventName: text({
    name: 'eventName',
    max: EVENT_NAME_MAX_LENGTH,
    typeError: 'eventName must be text',
    trim: true,
  })
    .optional()
    .transform((raw) => queryText(raw))
    .describe('Only events whose name contains this text, ignoring letter case'),
};

/** The query of GET api/events?page&pageSize&sortOrder&unprocessedOnly&erroredOnly&eventName. */
export const eventListQuerySchema = z
  .object({ ...pageNumberQueryShape, ...eventListFilters })
  .superRefine(refinePageCursor);
export type EventListQuery = z.infer<typeof eventListQuerySchema>;

/** The query of GET api/events/export?format&sortOrder&unprocessedOnly&erroredOnly&eventName. */
export const eventExportQuerySchema = exportQuerySchema(eventListFilters);
/** What GET api/events and its export filter by. */
export type EventFilters = Omit<EventListQuery, keyof typeof pageNumberQueryShape>;

const timestamp = z.iso.datetime();

/** One worker's record of an event. */
export const processedEventSchema = z.object({
  eventId: z.number().int(),
  workerName: z.string(),
  hasError: z.boolean(),
  errorMessage: z.string().nullable(),
  processedAt: timestamp.nullable().describe('When the worker succeeded; null until then'),
  attempts: z.number().int().describe('Times a worker instance has taken the event up'),
});
export type ProcessedEvent = z.infer<typeof processedEventSchema>;

/** One event of GET api/events. */
export const eventSchema = z.object({
  id: z.number().int(),
  eventName: z.string(),
  tenantId: z.number().int().nullable(),
  entityId: z.string().nullable(),
  uniqueId: z.string(),
  createdAt: timestamp,
  metadata: z
    .record(z.string(), z.unknown())
    .describe('Who did what: actor (email), action, the ids concerned, before/after'),
  isProcessed: z.boolean().describe('Every worker subscribed to the event has succeeded'),
  hasError: z.boolean().describe('A worker failed; its record has the message'),
  processedEvents: z.array(processedEventSchema).describe('By worker name'),
});
export type EventItem = z.infer<typeof eventSchema>;

export const eventListSchema = z.object({
  data: z.array(eventSchema),
  ...pageNumberTotalShape('Events'),
  page: z.number().int(),
  pageSize: z.number().int().describe('The page size used (after lowering to the maximum)'),
});
export type EventList = z.infer<typeof eventListSchema>;

/** The `{id}` of POST /api/events/{id}/reset. */
export const eventIdParamsSchema = z.object({ id: pathIdSchema('id', INT8_ID_MAX) });

const workerName = text({
  name: 'workerName',
  max: EVENT_NAME_MAX_LENGTH,
  typeError: 'workerName must be text',
  trim: true,
})
  .optional()
  .transform((name) => (name === '' ? undefined : name));

/** `workerName` of a reset, in the query string or the JSON body; absent means every worker. */
export const eventResetQuerySchema = z.object({
  workerName: workerName.describe("Reset only this worker's record"),
});
export const eventResetBodySchema = z
  .object({ workerName: workerName.describe("Reset only this worker's record") })
  .nullish();

/** The answer of POST /api/events/test. */
export const testEventResultSchema = z.object({ id: z.number().int() });

export type EventStatus = 'Error' | 'Processed' | 'Unprocessed';

/** The status badge (spec 4): Error if hasError; otherwise Processed if isProcessed; otherwise Unprocessed. */
export function eventStatus(event: Pick<EventItem, 'hasError' | 'isProcessed'>): EventStatus {
  if (event.hasError) return 'Error';
  if (event.isProcessed) return 'Processed';
  return 'Unprocessed';
}

/** The events calls (method and path; see api.ts). */
export const eventsApi = {
  list: apiRoute('GET', '/api/events'),
  export: apiRoute('GET', '/api/events/export'),
  reset: apiRoute('POST', '/api/events/:id/reset'),
  test: apiRoute('POST', '/api/events/test'),
} as const;
