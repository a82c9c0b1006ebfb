import { z } from 'zod';

/**
 * Ids in URL paths (`/api/tenants/{id}`): a canonical decimal integer in the range of the id's
 * column, nothing else. '0b1', '0x71', '1.13e2', '000113', '+113', ' 113 ', '113.0' or '0o7' would
 * all convert to a number, and act on the record of that number; they are refused with 400
 * instead, before anything happens.
 */

/** An `integer` / `serial` column: 1 to 2^31 - 1. */
export const INT4_ID_MAX = 2_147_483_647;
/**
 * A `bigint` / `bigserial` column. The database pool reads int8 values as JavaScript numbers
 * (db/connection.ts), exact up to 2^53 - 1; a larger id can name no row we could have answered, and
 * as a number it would round to another id, so it is refused.
 */
export const INT8_ID_MAX = Number.MAX_SAFE_INTEGER;

const CANONICAL_ID = /^[1-9][0-9]*$/;

/** Whether `raw` is written exactly as the id `max` allows: digits, no leading zero, in range. */
export function isCanonicalId(raw: string, max: number): boolean {
  return CANONICAL_ID.test(raw) && raw.length <= String(max).length && Number(raw) <= max;
}

/**
 * One path id as a schema: the raw text must be canonical (see isCanonicalId); the value is the
 * number. The message names the parameter.
 */
export function pathIdSchema(name: string, max: number = INT4_ID_MAX) {
  const message = `${name} must be a whole number from 1 to ${max}, in plain digits`;
  return z
    .string({ error: message })
    .regex(CANONICAL_ID, { error: message, abort: true })
    .refine((raw) => isCanonicalId(raw, max), { error: message })
    .transform(Number)
    .describe(`A whole number from 1 to ${max}, in plain digits`);
}

/** `{id}` of a route on an `integer` / `serial` id: tenants, tenant users, forms. */
export const idParamsSchema = z.object({ id: pathIdSchema('id') });
