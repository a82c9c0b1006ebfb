import { z } from 'zod';
import { isPrototypeKey, prototypeKeyMessage } from './keys.ts';

/**
 * Rules every text the API accepts follows, whatever the feature (docs/architecture.md, "Input"):
 * a maximum length that fits its column and its screen, no NUL character (PostgreSQL's text and
 * jsonb cannot hold it), no lone surrogate (half of a UTF-16 pair: jsonb refuses it, and a text
 * column silently stores U+FFFD instead, so the stored value would differ from the one sent).
 * Build every string field of a request with `text()` so that the server and the UI (which reads
 * `maxLength` from the schema) apply the same limits.
 */

const HIGH_SURROGATE_ALONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/;
const LOW_SURROGATE_ALONE = /(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasNoNul = (value: string): boolean => !value.includes('\u0000');

/** True when every surrogate in `value` is part of a pair (the text is valid Unicode). */
export const hasNoLoneSurrogate = (value: string): boolean =>
  !HIGH_SURROGATE_ALONE.test(value) && !LOW_SURROGATE_ALONE.test(value);

export const nulMessage = (name: string) => `${name} must not contain the NUL character`;
export const loneSurrogateMessage = (name: string) =>
  `${name} must not contain a lone surrogate (half of a UTF-16 pair, not valid Unicode)`;
export const tooLongMessage = (name: string, max: number) =>
  `${name} must be ${max} characters or less`;

/** NUL, or a surrogate that is not part of a pair: one pass over the text for the common case. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this pattern looks for.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when PostgreSQL can store `value` as sent: no NUL, no lone surrogate. */
export const isStorableText = (value: string): boolean => !UNSTORABLE.test(value);

/** The message for a text we cannot store, or null when it can be stored as sent. */
export function unstorableTextMessage(value: string, name: string): string | null {
  if (isStorableText(value)) return null;
  return hasNoNul(value) ? loneSurrogateMessage(name) : nulMessage(name);
}

export interface TextOptions {
  /** How messages name the field: 'displayName', or a phrase such as 'A tag'. */
  name: string;
  /** Longest value accepted, in UTF-16 code units (as HTML's maxlength counts). */
  max: number;
  /** The message for a value that is not a string (absent gives 'Required'). */
  typeError?: string;
  /** Trim before the length check (the value stored is trimmed). */
  trim?: boolean;
  /** The message for a value over `max` (default '{name} must be {max} characters or less'). */
  tooLongError?: string;
}

/**
 * A string field of a request: at most `max` characters, NUL and lone surrogates refused, each
 * with a message that names the field. The result is a plain ZodString (`.maxLength` is `max`),
 * so callers can chain further checks.
 */
export function text({ name, max, typeError, trim = false, tooLongError }: TextOptions) {
  const base = z.string({
    error: (issue) =>
      issue.input === undefined ? 'Required' : (typeError ?? `${name} must be a string`),
  });
  return (trim ? base.trim() : base)
    .max(max, { error: tooLongError ?? tooLongMessage(name, max) })
    .refine(hasNoNul, { error: nulMessage(name) })
    .refine(hasNoLoneSurrogate, { error: loneSurrogateMessage(name) });
}

/**
 * Deepest nesting of arrays and objects a JSON body may have. Our deepest body (an import record
 * with its API references) has 3 levels; the margin is for later features. Without a limit a
 * body of 5 MB can nest a million levels, which recursive code (validation, logging) cannot walk.
 */
export const JSON_DEPTH_MAX = 32;

/** A problem of a client's JSON document, at its path (property names and array indexes). */
export interface JsonProblem {
  path: string[];
  message: string;
}

/**
 * The first problem of a JSON document a client sent, or null: a value nested deeper than
 * `maxDepth` levels, or a prototype key (keys.ts) anywhere. `name` names the document when the
 * path does not ('the body', 'FormData'). One walk, which never goes below `maxDepth` levels, so
 * a body nested a million levels deep is measured without exhausting the stack; one path array
 * is shared by the whole walk (bodies of 10,000 records are walked on every import).
 */
export function findJsonProblem(
  value: unknown,
  name: string,
  maxDepth = JSON_DEPTH_MAX,
): JsonProblem | null {
  const path: string[] = [];
  switch (problemIn(value, maxDepth, path)) {
    case 'tooDeep': {
      const field = path.find((step) => !/^\d+$/.test(step)) ?? name;
      return {
        path,
        message: `${field} is nested too deeply: a JSON body may nest at most ${maxDepth} levels`,
      };
    }
    case 'prototypeKey': {
      const parent = path.slice(0, -1).join('.') || name;
      return { path, message: prototypeKeyMessage(`A key of ${parent}`, path.at(-1)!) };
    }
    default:
      return null;
  }
}

function problemIn(value: unknown, max: number, path: string[]): 'tooDeep' | 'prototypeKey' | null {
  if (typeof value !== 'object' || value === null) return null;
  if (path.length >= max) return 'tooDeep';
  const record = value as Record<string, unknown>;
  const keys = Array.isArray(value) ? null : Object.keys(record);
  const count = keys ? keys.length : (value as unknown[]).length;
  for (let index = 0; index < count; index++) {
    const key = keys ? keys[index]! : String(index);
    if (keys && isPrototypeKey(key)) {
      path.push(key);
      return 'prototypeKey';
    }
    const child = record[key];
    if (typeof child !== 'object' || child === null) continue;
    path.push(key);
    const problem = problemIn(child, max, path);
    if (problem) return problem;
    path.pop();
  }
  return null;
}

/**
 * The error of a record (`z.record(keySchema, ...)`): a key its schema refuses says that schema's
 * own message ('A field name must be 50 characters or less'), anything else `message`. Zod's own
 * message for a refused key, 'Invalid key in record', would not say what is wrong with it.
 */
export function recordError(message: string) {
  return (issue: { code?: string; issues?: readonly { message?: string }[] }) =>
    issue.code === 'invalid_key' ? (issue.issues?.[0]?.message ?? message) : message;
}
