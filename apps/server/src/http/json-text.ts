import { sql } from 'kysely';

/**
 * An answer of type `T` already written as JSON (by PostgreSQL: a page of the entity lists): the
 * route sends the text as it is, without parsing it or writing it again.
 */
export interface JsonText<T> {
  readonly text: string;
  /** Never set: ties the text to the type it holds, so a route can only send the right one. */
  readonly holds?: T;
}

/** `text` as the JSON of a `T`: the caller vouches for the shape (and its tests check it). */
export function jsonText<T>(text: string): JsonText<T> {
  return { text };
}

/** The value `json` holds (tests and the benchmark read pages the way a client does). */
export function parseJsonText<T>(json: JsonText<T>): T {
  return JSON.parse(json.text) as T;
}

/** A time as the text toISOString gives, made by PostgreSQL: no Date per row. */
export function isoText(column: string) {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
