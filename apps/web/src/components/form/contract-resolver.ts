/**
 * A react-hook-form resolver that checks a form with a contract's schema, for forms whose inputs
 * hold something other than the request (a select's value is a string, the request's a number).
 * Each problem goes under the field its path starts with, the first one a field has winning, so
 * that the dialog refuses exactly what the server would, with the server's words.
 */
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

export function contractResolver<TValues extends FieldValues, TSchema extends z.ZodType>(
  schema: TSchema,
  requestOf: (values: TValues) => z.input<TSchema>,
): Resolver<TValues, unknown, z.output<TSchema>> {
  return (values) => {
    const result = schema.safeParse(requestOf(values));
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const field = issue.path[0];
      if (typeof field === 'string' && field in values) {
        errors[field] ??= { type: 'validate', message: issue.message };
      }
    }
    return { values: {}, errors: errors as FieldErrors<TValues> };
  };
}
