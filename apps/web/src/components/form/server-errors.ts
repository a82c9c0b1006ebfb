/**
 * A 400 answer of the server, placed on the fields it names. The server answers a request its
 * schema refuses with `{ message, errors: [{ path, message }] }` (apps/server/src/app.ts, the
 * error handler), `path` being the body's path joined with dots ('displayName', 'tags.3',
 * 'validityPeriod.years').
 */
import { z } from 'zod';
import { ApiError } from '@/lib/api-client';

const validationAnswerSchema = z.object({
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
});

export interface ServerFieldError {
  field: string;
  message: string;
}

/**
 * The field each problem of a 400 answer belongs to: the longest `aliases` entry its path starts
 * with (for a body shaped unlike the form), otherwise its first segment when the form has a field
 * of that name. Null when the error is not such an answer or a problem names no field: then the
 * dialog shows the server's message as a whole, so that nothing it said is lost.
 */
export function serverFieldErrors(
  error: unknown,
  fields: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): ServerFieldError[] | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const answer = validationAnswerSchema.safeParse(error.data);
  if (!answer.success || answer.data.errors.length === 0) return null;
  const placed: ServerFieldError[] = [];
  for (const problem of answer.data.errors) {
    const field = fieldOf(problem.path, fields, aliases);
    if (field === undefined) return null;
    // The first problem of a field is the one it shows, as with the dialog's own rules.
    if (!placed.some((other) => other.field === field)) {
      placed.push({ field, message: problem.message });
    }
  }
  return placed;
}

function fieldOf(
  path: string,
  fields: readonly string[],
  aliases: Readonly<Record<string, string>>,
): string | undefined {
  const segments = path.split('.');
  for (let length = segments.length; length > 0; length -= 1) {
    const alias = aliases[segments.slice(0, length).join('.')];
    if (alias !== undefined) return alias;
  }
  return fields.includes(segments[0] ?? '') ? segments[0] : undefined;
}
