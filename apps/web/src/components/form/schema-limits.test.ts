import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { entryMaxLengthsOf, itemMaxLengthOf, maxLengthOf, schemaAt } from './schema-limits';

// Shaped like the contracts' fields: checks and normalising steps around a string with .max().
const name = z
  .preprocess((value) => value ?? '', z.string().trim().max(200))
  .refine((value) => value.length > 0, { error: 'Please fill in all required fields.' });
const contract = z
  .object({
    name,
    note: z
      .string()
      .max(30)
      .optional()
      .transform((value) => value ?? ''),
    code: z.string().refine((value) => value.length <= 8),
    count: z.number().int().max(10).nullish(),
    tags: z.array(z.string().max(100)).max(50).optional(),
    references: z
      .record(z.string().max(100), z.string().max(2000))
      .superRefine(() => undefined)
      .transform((value) => value),
    period: z.object({ years: z.number() }).nullish(),
  })
  .superRefine(() => undefined);

describe('reading limits from a contract schema', () => {
  it('finds a field by its form path, through wrappers, arrays and nested objects', () => {
    expect(maxLengthOf(schemaAt(contract, 'name'))).toBe(200);
    expect(maxLengthOf(schemaAt(contract, 'note'))).toBe(30);
    expect(maxLengthOf(schemaAt(contract, 'tags.3'))).toBe(100);
    expect(schemaAt(contract, 'period.years')).toBeInstanceOf(z.ZodNumber);
    expect(schemaAt(contract, 'missing')).toBeUndefined();
    expect(schemaAt(contract, 'name.first')).toBeUndefined();
    expect(schemaAt(undefined, 'name')).toBeUndefined();
  });

  it('gives no max length where the schema sets none (a refine, a number, no schema)', () => {
    expect(maxLengthOf(schemaAt(contract, 'code'))).toBeUndefined();
    expect(maxLengthOf(schemaAt(contract, 'count'))).toBeUndefined();
    expect(maxLengthOf(undefined)).toBeUndefined();
  });

  it('reads the items of a list and the keys and values of a map', () => {
    expect(itemMaxLengthOf(schemaAt(contract, 'tags'))).toBe(100);
    expect(entryMaxLengthsOf(schemaAt(contract, 'references'))).toEqual({
      key: 100,
      value: 2000,
    });
    expect(itemMaxLengthOf(schemaAt(contract, 'name'))).toBeUndefined();
    expect(entryMaxLengthsOf(undefined)).toEqual({ key: undefined, value: undefined });
  });
});
