import { z } from 'zod';
import { DATABASE_ID_MAX } from './tenants.ts';
import { apiRoute } from './api.ts';

/**
 * Entities of the tenant portal (spec part 1, sections 2, 3 and 7), and the paging of the portal's
 * lists, which entity users share.
 */

// ---------------------------------------------------------------------------------------------
// Paging of GET api/Entity and GET api/EntityUser: `?offset&limit`, answered as one page
// `{data, totalCount, offset, limit}`. The spec leaves the response shape open; a page keeps the
// lists fast at a million rows.

/** Rows of one page when the caller sends no limit. */
export const LIST_LIMIT_DEFAULT = 100;
/** The most rows one page holds: a larger limit is lowered to this (the answer says so). */
export const LIST_LIMIT_MAX = 1000;

/**
 * A whole number in a query string: absent or empty means `undefined`; anything but digits (a
 * sign, a fraction, a repeated parameter) or a value out of range is a custom issue, passed on to
 * the caller word for word.
 */
function wholeNumberQueryParam(field: string, min: number, max: number) {
  const message = `${field} must be a whole number from ${min} to ${max}`;
  return z
    .string({ error: message })
    .optional()
    .transform((raw, ctx) => {
      const text = raw?.trim() ?? '';
      if (text === '') return undefined;
      const value = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN;
      if (!(value >= min && value <= max)) {
        ctx.issues.push({ code: 'custom', input: raw, message });
        return z.NEVER;
      }
      return value;
    });
}

/** `offset` and `limit` of a list call: offset 0 and limit 100 by default, limit at most 1000. */
export const listPageQueryShape = {
  offset: wholeNumberQueryParam('offset', 0, Number.MAX_SAFE_INTEGER)
    .transform((offset) => offset ?? 0)
    .describe('Rows to skip (default 0)'),
  limit: wholeNumberQueryParam('limit', 1, Number.MAX_SAFE_INTEGER)
    .transform((limit) => Math.min(limit ?? LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX))
    .describe(
      `Rows to answer (default ${LIST_LIMIT_DEFAULT}; more than ${LIST_LIMIT_MAX} is lowered to ${LIST_LIMIT_MAX})`,
    ),
};

/** `tenantId` of a list call: only that tenant's rows (a tenant user may only name its own). */
export const tenantIdQueryParam = wholeNumberQueryParam('tenantId', 1, DATABASE_ID_MAX).describe(
  "Only this tenant's rows",
);

/** `sort` of a list call: one of `options`, the first by default; '-' means descending. */
export function sortQueryParam<const T extends readonly [string, ...string[]]>(options: T) {
  const message = `sort must be one of ${options.join(', ')}`;
  return z
    .string({ error: message })
    .optional()
    .transform((raw, ctx): T[number] => {
      const text = raw?.trim() ?? '';
      if (text === '') return options[0];
      if (!options.includes(text)) {
        ctx.issues.push({ code: 'custom', input: raw, message });
        return z.NEVER;
      }
      return text;
    })
    .describe(`${options.join(' | ')} (default ${options[0]})`);
}

/** One page of a list. */
export interface Page<T> {
  data: T[];
  /** Rows of the whole list (with its filters), not just of this page. */
  totalCount: number;
  offset: number;
  /** The limit applied: the one asked for, lowered to LIST_LIMIT_MAX. */
  limit: number;
}

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    totalCount: z.number().int().describe('Rows of the whole list with its filters'),
    offset: z.number().int(),
    limit: z.number().int().describe(`The limit applied (at most ${LIST_LIMIT_MAX})`),
  });
}

// ---------------------------------------------------------------------------------------------
// Entities.

/** The `names` of an entity: a map of names, `entityName` among them (spec 3). */
export const entityNamesSchema = z.object({
  names: z.object({ entityName: z.string().optional() }).catchall(z.string()),
});
export type EntityNames = z.infer<typeof entityNamesSchema>;

/**
 * The name an entity is shown by (spec 2: "the name ... shown are derived"): its entityName,
 * trimmed, or its id when it has none.
 */
export function entityDisplayName(entity: {
  partyEntityId: string;
  names?: { names?: { entityName?: string | undefined } | undefined } | null | undefined;
}): string {
  const name = entity.names?.names?.entityName;
  return typeof name === 'string' && name.trim() ? name.trim() : entity.partyEntityId;
}

/** One row of GET api/Entity. */
export const entitySchema = z.object({
  partyEntityId: z.string(),
  tenantId: z.number().int(),
  tenantName: z.string().describe("The tenant's company name"),
  names: entityNamesSchema,
  country: z.string().nullable().describe('ISO 3166-1 alpha-2 code, or null when not recorded'),
  displayName: z.string().describe('entityName, or the id when the entity has no name'),
});
export type Entity = z.infer<typeof entitySchema>;

export const ENTITY_SORTS = ['partyEntityId', '-partyEntityId'] as const;
export type EntitySort = (typeof ENTITY_SORTS)[number];

/** Query of GET api/Entity?offset&limit[&tenantId][&sort]. */
export const entityListQuerySchema = z.object({
  ...listPageQueryShape,
  tenantId: tenantIdQueryParam,
  sort: sortQueryParam(ENTITY_SORTS),
});
export type EntityListQuery = z.output<typeof entityListQuerySchema>;

export const entityPageSchema = pageSchema(entitySchema);
export type EntityPage = Page<Entity>;

/** The entities calls (method and path; see api.ts). */
export const entitiesApi = {
  list: apiRoute('GET', '/api/Entity'),
} as const;
