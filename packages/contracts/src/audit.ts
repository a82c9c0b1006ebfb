import { z } from 'zod';
import { apiRoute } from './api.ts';
import { exportQuerySchema } from './exports.ts';
import {
  pageNumberQueryShape,
  pageNumberTotalShape,
  queryText,
  refinePageCursor,
} from './events.ts';
import { INT4_ID_MAX, pathIdSchema } from './ids.ts';
import { EMAIL_MAX_LENGTH } from './tenant-users.ts';
import { text } from './text.ts';

/**
 * The audit log (issue 31): who changed what, when, and from what to what. Every event the
 * console records becomes one append-only row (the audit-trail worker); this is its list.
 */

/** Longest action and target type (words of the code: 'update', 'DocumentType'). */
export const AUDIT_WORD_MAX_LENGTH = 50;
/** Longest target id (document type ids and form names are the longest ids, 100 characters). */
export const AUDIT_TARGET_ID_MAX_LENGTH = 200;
/** Longest free text searched in target names. */
export const AUDIT_SEARCH_MAX_LENGTH = 100;

/** The target types the console records (the screen's choices; the filter accepts any word). */
export const AUDIT_TARGET_TYPES = [
  'Country',
  'DatabaseScript',
  'DocumentType',
  'EmailTemplate',
  'EntityUser',
  'Event',
  'FatfImport',
  'Form',
  'FormField',
  'Migration',
  'Profile',
  'Session',
  'Tenant',
  'TenantUser',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** The actions the console records (the screen's choices; the filter accepts any word). */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'import',
  'execute',
  'cancel',
  'migrate',
  'seed',
  'send',
  'reset',
  'test',
  'sign-in',
  'sign-in-refused',
  'sign-out',
] as const;

/**
 * What an audit row is about (an event's `metadata.target`): its type, its id (none for an
 * import of many), and its name when it has one.
 */
export interface AuditTarget {
  type: AuditTargetType;
  id?: string | number;
  name?: string | null;
}

/** An optional text filter of the query string: blank means not given. */
function textFilter(name: string, max: number) {
  return text({ name, max, typeError: `${name} must be text`, trim: true })
    .optional()
    .transform((raw) => queryText(raw));
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `from` / `to` of the query string: a day (yyyy-MM-dd, UTC) or an ISO 8601 moment with its
 * offset. Answered as the first moment the range includes (`from`) or the first it excludes
 * (`to`: a day includes the whole day, a moment itself).
 */
function boundaryParam(name: 'from' | 'to') {
  const message = `${name} must be a date (yyyy-MM-dd) or a date and time with its offset (ISO 8601)`;
  return z
    .string({ error: message })
    .optional()
    .transform((raw, ctx): Date | undefined => {
      const value = queryText(raw);
      if (value === undefined) return undefined;
      const dateOnly = DATE_ONLY.test(value);
      const moment =
        dateOnly || DATE_TIME.test(value)
          ? new Date(dateOnly ? `${value}T00:00:00Z` : value)
          : null;
      // 2025-02-30 parses to 2 March: a day must read back as written.
      const valid =
        moment !== null &&
        !Number.isNaN(moment.getTime()) &&
        (!dateOnly || moment.toISOString().slice(0, 10) === value);
      if (!valid) {
        ctx.issues.push({ code: 'custom', input: raw, message });
        return z.NEVER;
      }
      if (name === 'to') {
        return new Date(moment.getTime() + (dateOnly ? 24 * 60 * 60 * 1000 : 1));
      }
      return moment;
    });
}

/** The filters of GET api/audit, its export's too. */
const auditListFilters = {
  actor: textFilter('actor', EMAIL_MAX_LENGTH).describe(
    'Only rows of this actor (an email, ignoring letter case)',
  ),
  action: textFilter('action', AUDIT_WORD_MAX_LENGTH).describe(
    `Only rows of this action (${AUDIT_ACTIONS.join(', ')})`,
  ),
  targetType: textFilter('targetType', AUDIT_WORD_MAX_LENGTH).describe(
    `Only rows about this kind of record (${AUDIT_TARGET_TYPES.join(', ')})`,
  ),
  targetId: textFilter('targetId', AUDIT_TARGET_ID_MAX_LENGTH).describe(
    'Only rows about the record of this id',
  ),
  tenantId: pathIdSchema('tenantId', INT4_ID_MAX)
    .optional()
    .describe("Only rows of this tenant's records"),
  from: boundaryParam('from').describe('From this day (UTC) or moment on'),
  to: boundaryParam('to').describe('Up to this day (UTC, the whole day) or moment'),
  q: textFilter('q', AUDIT_SEARCH_MAX_LENGTH).describe(
    "Only rows whose target's name contains this text, ignoring letter case",
  ),
};

/** `to` after `from`, on the list and its export alike. */
function refineRange(
  query: { from?: Date | undefined; to?: Date | undefined },
  ctx: z.RefinementCtx,
) {
  if (query.from && query.to && query.from >= query.to) {
    ctx.issues.push({
      code: 'custom',
      input: query,
      path: ['to'],
      message: 'to must not be before from',
    });
  }
}

/** The query of GET api/audit. */
export const auditListQuerySchema = z
  .object({ ...pageNumberQueryShape, ...auditListFilters })
  .superRefine(refineRange)
  .superRefine(refinePageCursor);
export type AuditListQuery = z.output<typeof auditListQuerySchema>;

/** The query of GET api/audit/export: the list's filters and `format`. */
export const auditExportQuerySchema = exportQuerySchema(auditListFilters).superRefine(refineRange);
/** What GET api/audit and its export filter by. */
export type AuditFilters = Omit<AuditListQuery, keyof typeof pageNumberQueryShape>;

const json = z.unknown().describe('Any JSON value');

/** One row of the audit log. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  eventId: z.number().int().describe('The event the row was written from'),
  eventName: z.string(),
  occurredAt: z.iso.datetime().describe('When the change was made'),
  actor: z.string().nullable().describe("Who: the signed-in user's email"),
  action: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  targetName: z.string().nullable(),
  tenantId: z.number().int().nullable(),
  tenantName: z.string().nullable().describe("The tenant's company name, while it exists"),
  entityId: z.string().nullable(),
  before: json.describe('The record before the change (null for a creation)'),
  after: json.describe('The record after the change (null for a deletion)'),
  metadata: z.record(z.string(), z.unknown()).describe("The event's whole metadata"),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListSchema = z.object({
  data: z.array(auditEntrySchema),
  ...pageNumberTotalShape('Rows'),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditList = z.infer<typeof auditListSchema>;

/** The audit calls (method and path; see api.ts). */
export const auditApi = {
  list: apiRoute('GET', '/api/audit'),
  export: apiRoute('GET', '/api/audit/export'),
} as const;
