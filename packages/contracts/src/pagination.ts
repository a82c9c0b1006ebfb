import { z } from 'zod';

/** Page sizes offered by every list screen (spec part 1, section 9). */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 10;

export function isPageSize(value: unknown): value is PageSize {
  return typeof value === 'number' && (PAGE_SIZES as readonly number[]).includes(value);
}

// ---------------------------------------------------------------------------------------------
// The one paging contract of server-paged lists: `?offset&limit`, answered as one page
// `{data, totalCount, offset, limit}` (GET api/Entity, GET api/EntityUser). The spec leaves the
// response shape open; a page keeps the lists fast at a million rows. GET api/events keeps the
// spec's own names at the edge (`page`, `pageSize`) over the same server helper (db/paging.ts).

/** Rows of one page when the caller sends no limit. */
export const LIST_LIMIT_DEFAULT = 100;
/** The most rows one page holds: a larger limit is lowered to this (the answer says so). */
export const LIST_LIMIT_MAX = 1000;

/**
 * A whole number in a query string: absent or empty means `undefined`; anything but digits (a
 * sign, a fraction, a repeated parameter) or a value out of range is a custom issue, passed on to
 * the caller word for word.
 */
export function wholeNumberQueryParam(field: string, min: number, max: number) {
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
