/**
 * A react-hook-form resolver that checks a form with a contract's schema, for forms whose inputs
 * hold something other than the request (a select's value is a string, the request's a number).
 * Each problem goes under the field its path starts with, the first one a field has winning, so
 * that the dialog refuses exactly what the server would, with the server's words.
 */
import { set, type FieldErrors, type FieldValues, type Resolver } from 'react-hook-form';
import type { z } from 'zod';

/** A problem of the form's own inputs, at its full path ('apiReferences.2.service'). */
export interface FormProblem {
  path: string;
  message: string;
}

export function contractResolver<TValues extends FieldValues, TSchema extends z.ZodType>(
  schema: TSchema,
  requestOf: (values: TValues) => z.input<TSchema>,
  /**
   * Problems the request cannot show, found in the inputs themselves (a row of an editor: the
   * request is a map, the form a list of rows). Each goes under its own path, before the
   * contract's problems.
   */
  formProblems?: (values: TValues) => readonly FormProblem[],
): Resolver<TValues, unknown, z.output<TSchema>> {
  return (values) => {
    const errors: Record<string, unknown> = {};
    for (const { path, message } of formProblems?.(values) ?? []) {
      set(errors, path, { type: 'validate', message });
    }
    const result = schema.safeParse(requestOf(values));
    if (result.success && Object.keys(errors).length === 0) {
      return { values: result.data, errors: {} };
    }
    for (const issue of result.error?.issues ?? []) {
      const field = issue.path[0];
      if (typeof field === 'string' && field in values) {
        errors[field] ??= { type: 'validate', message: issue.message };
      }
    }
    return { values: {}, errors: errors as FieldErrors<TValues> };
  };
}
