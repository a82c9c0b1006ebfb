/**
 * What a form reads from a contract's zod schema beyond validation: the longest text a field
 * accepts, so that its input stops there (HTML `maxlength`) instead of refusing on save. The
 * contracts wrap their strings in optional, nullable, default, preprocess and transform steps;
 * these helpers look through all of them.
 */
import { z } from 'zod';

/** The schema under the wrappers that do not change what is typed (optional, transform, ...). */
function candidatesOf(schema: z.ZodType): z.ZodType[] {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodNonOptional ||
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodCatch
  ) {
    return candidatesOf(schema.unwrap() as z.ZodType);
  }
  // A transform checks its input; a preprocess (a transform first) checks its output.
  if (schema instanceof z.ZodPipe) {
    return [...candidatesOf(schema.in as z.ZodType), ...candidatesOf(schema.out as z.ZodType)];
  }
  return [schema];
}

function unwrapTo<T extends z.ZodType>(
  schema: z.ZodType | undefined,
  type: abstract new (...args: never[]) => T,
): T | undefined {
  if (!schema) return undefined;
  return candidatesOf(schema).find((candidate): candidate is T => candidate instanceof type);
}

/**
 * The schema of one field of an object schema by its form path ('displayName', 'tags.0'): object
 * keys by name, array items by any index. Undefined where the path leaves the schema.
 */
export function schemaAt(schema: z.ZodType | undefined, path: string): z.ZodType | undefined {
  let current = schema;
  for (const segment of path.split('.')) {
    const object = unwrapTo(current, z.ZodObject);
    const array = unwrapTo(current, z.ZodArray);
    if (object) current = object.shape[segment] as z.ZodType | undefined;
    else if (array && /^\d+$/.test(segment)) current = array.element as z.ZodType;
    else return undefined;
  }
  return current;
}

/** The longest string a schema accepts (its `.max()`), or undefined when it sets none. */
export function maxLengthOf(schema: z.ZodType | undefined): number | undefined {
  return unwrapTo(schema, z.ZodString)?.maxLength ?? undefined;
}

/** The longest item of a list of strings (tags, namespaces). */
export function itemMaxLengthOf(schema: z.ZodType | undefined): number | undefined {
  return maxLengthOf(unwrapTo(schema, z.ZodArray)?.element as z.ZodType | undefined);
}

/** The longest key and value of a map of strings (API references). */
export function entryMaxLengthsOf(schema: z.ZodType | undefined): {
  key?: number;
  value?: number;
} {
  const record = unwrapTo(schema, z.ZodRecord);
  return {
    key: maxLengthOf(record?.keyType as z.ZodType | undefined),
    value: maxLengthOf(record?.valueType as z.ZodType | undefined),
  };
}
