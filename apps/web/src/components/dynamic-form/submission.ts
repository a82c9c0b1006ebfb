/**
 * Reading a refused submission of a dynamic form (spec part 2, section 7: "A 400 returns title
 * and errors (a map from label to list of messages)"; part 1, section 8, "Form submission").
 */
import { z } from 'zod';
import { ApiError, serverMessage } from '@/lib/api-client';
import type { FieldErrors } from './form-dom';

const validationProblemSchema = z.object({
  title: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())),
});

/** The field rules' refusal: a 400 whose body has an `errors` map, with its title if any. */
export function validationProblemOf(
  error: unknown,
): { title: string | undefined; errors: FieldErrors } | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const problem = validationProblemSchema.safeParse(error.data);
  if (!problem.success || Object.keys(problem.data.errors).length === 0) return null;
  return { title: problem.data.title || undefined, errors: problem.data.errors };
}

/** The server's own words for a failed call: its body's `message`, else its `title`. */
export function serverMessageOf(error: unknown): string | undefined {
  const message = serverMessage(error);
  if (message !== undefined || !(error instanceof ApiError)) return message;
  const { data } = error;
  if (typeof data !== 'object' || data === null || !('title' in data)) return undefined;
  const { title } = data as { title: unknown };
  return typeof title === 'string' && title.trim() !== '' ? title : undefined;
}
