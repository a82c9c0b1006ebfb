/**
 * The contract schema of the form being edited, handed to its fields so that each reads its own
 * limits (max length) by name instead of every dialog passing them field by field.
 */
import { createContext, useContext } from 'react';
import type { z } from 'zod';
import { schemaAt } from './schema-limits';

export const FormSchemaContext = createContext<z.ZodType | undefined>(undefined);

/** The contract schema of the field at `path` of the current form, if the form has one. */
export function useFieldSchema(path: string): z.ZodType | undefined {
  return schemaAt(useContext(FormSchemaContext), path);
}
