import { z } from 'zod';
import { apiRoute } from './api.ts';
import { pathIdSchema } from './ids.ts';
import { text } from './text.ts';

/** Countries (spec part 1: sections 3, 5 and 7), shared by the countries screen and the server. */

/** ISO 3166-1 numeric codes are three digits: 001 to 999. */
export const COUNTRY_ID_MIN = 1;
export const COUNTRY_ID_MAX = 999;

/** A timestamp as the API sends it: ISO 8601 in UTC, or null when not set. */
const timestampOrNull = z.iso.datetime().nullable();

/** One row of GET api/countries. */
export const countrySchema = z.object({
  id: z.number().int().describe('ISO 3166-1 numeric code'),
  countryName: z.string(),
  alpha2Code: z.string(),
  alpha3Code: z.string(),
  sequence: z.number().int().nullable(),
  validFrom: timestampOrNull,
  validTo: timestampOrNull,
  cachedRisk: z.string().nullable().describe('Latest risk rating (from the FATF import)'),
  cachedRiskAt: timestampOrNull,
});
export type Country = z.infer<typeof countrySchema>;

export const countryListSchema = z
  .array(countrySchema)
  .meta({ description: 'Staff and admins: every country with its codes, validity and risk' });

/**
 * A country as a choice of the forms' Country fields (spec part 2, section 3: "Country and
 * document type choices: id, displayName; used for form setup"): its code and the name the
 * option shows, nothing of its risk data. What GET api/countries answers a tenant user; the
 * same fields of a staff record, so a staff answer parses as choices too.
 */
export const countryChoiceSchema = countrySchema.pick({ id: true, countryName: true });
export type CountryChoice = z.infer<typeof countryChoiceSchema>;

export const countryChoiceListSchema = z
  .array(countryChoiceSchema)
  .meta({ description: 'Tenant users: the choices of the profile forms (id, countryName)' });

/** The `{id}` of DELETE api/countries/{id}. */
export const countryIdParamsSchema = z.object({ id: pathIdSchema('id', COUNTRY_ID_MAX) });

/** Longest country name stored (the longest ISO short name has 56 characters). */
export const COUNTRY_NAME_MAX_LENGTH = 200;

const letters = (count: number, field: string) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? 'Required' : `${field} must be a string`),
    })
    .regex(new RegExp(`^[A-Za-z]{${count}}$`), {
      error: `${field} must be exactly ${count} letters (A-Z)`,
    })
    // ISO codes are upper case; storing them so keeps the uniqueness of codes case-insensitive.
    .transform((value) => value.toUpperCase());

/**
 * One record of an import file (spec 3 "Import country record", spec 5 "Import files"): the ISO
 * numeric code, the two codes (stored upper-cased) and the name (stored trimmed). Other fields of
 * the record are ignored.
 */
export const countryImportRecordSchema = z.object(
  {
    id: z
      .number({
        error: (issue) => (issue.input === undefined ? 'Required' : 'id must be a number'),
      })
      .int({ error: 'id must be a whole number' })
      .min(COUNTRY_ID_MIN, {
        error: `id must be an ISO 3166-1 numeric code (${COUNTRY_ID_MIN}-${COUNTRY_ID_MAX})`,
      })
      .max(COUNTRY_ID_MAX, {
        error: `id must be an ISO 3166-1 numeric code (${COUNTRY_ID_MIN}-${COUNTRY_ID_MAX})`,
      })
      .describe('ISO 3166-1 numeric code'),
    alpha2: letters(2, 'alpha2'),
    alpha3: letters(3, 'alpha3'),
    name: text({ name: 'name', max: COUNTRY_NAME_MAX_LENGTH, trim: true }).refine(
      (value) => value.length > 0,
      { error: 'name must not be empty' },
    ),
  },
  { error: 'Each record must be an object with id, alpha2, alpha3 and name' },
);
export type CountryImportRecord = z.input<typeof countryImportRecordSchema>;
export type ParsedCountryImportRecord = z.output<typeof countryImportRecordSchema>;

/**
 * The body of POST api/countries/import: an array of records in which no id, alpha-2 or alpha-3
 * code appears twice (the import is one upsert by id: a repeated id would be ambiguous).
 */
export const countryImportSchema = z
  .array(countryImportRecordSchema, { error: 'Expected an array of countries' })
  // Ids are distinct codes from 1 to 999: a longer list necessarily repeats one.
  .max(COUNTRY_ID_MAX, { error: `At most ${COUNTRY_ID_MAX} countries can be imported at once` })
  .superRefine((records, ctx) => {
    for (const field of ['id', 'alpha2', 'alpha3'] as const) {
      for (const duplicate of findDuplicates(records, (record) => record[field])) {
        ctx.addIssue({
          code: 'custom',
          path: [duplicate.index, field],
          message: `Duplicate ${field} ${String(duplicate.value)} (already at index ${duplicate.firstIndex})`,
        });
      }
    }
  });

/** Response of the import calls: how many records were written (inserted or changed). */
export const importResultSchema = z.object({
  count: z
    .number()
    .int()
    .min(0)
    .describe('Records inserted or changed; unchanged ones are not counted'),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** Every record whose key was already seen earlier in the list, with the index of the first. */
export function findDuplicates<T, K>(
  records: readonly T[],
  keyOf: (record: T) => K,
): { index: number; firstIndex: number; value: K }[] {
  const firstIndexOf = new Map<K, number>();
  const duplicates: { index: number; firstIndex: number; value: K }[] = [];
  records.forEach((record, index) => {
    const value = keyOf(record);
    const firstIndex = firstIndexOf.get(value);
    if (firstIndex === undefined) firstIndexOf.set(value, index);
    else duplicates.push({ index, firstIndex, value });
  });
  return duplicates;
}

/** The countries calls (method and path; see api.ts). */
export const countriesApi = {
  list: apiRoute('GET', '/api/countries'),
  delete: apiRoute('DELETE', '/api/countries/:id'),
  import: apiRoute('POST', '/api/countries/import'),
  export: apiRoute('GET', '/api/countries/export'),
} as const;
