import { z } from 'zod';
import { COUNTRY_ID_MAX, COUNTRY_ID_MIN } from './countries.ts';
import { INT4_ID_MAX, idParamsSchema } from './ids.ts';
import { text } from './text.ts';
import { apiRoute } from './api.ts';

/** Rules of tenants (spec part 1, sections 5 and 9), shared by the dialogs and the server. */

export const NAMESPACE_MIN_LENGTH = 8;
export const NAMESPACE_MAX_LENGTH = 32;

/** The alert of the tenant and tenant-user dialogs when a required field is missing (spec 5). */
export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields.';

/** Namespaces trimmed, empty ones dropped, each kept once (first occurrence wins). */
export function normalizeNamespaces(namespaces: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const namespace of namespaces) {
    const trimmed = namespace.trim();
    if (trimmed) seen.add(trimmed);
  }
  return [...seen];
}

/**
 * The namespace given to a tenant created without one (spec 5): the lower-case ASCII letters and
 * digits of the company name, at most 32 of them. A shorter result than 8 is padded: first 'ns',
 * then the last digits of `now` in epoch milliseconds, up to exactly 8 characters. So
 * 'Globex Limited' gives 'globexlimited', 'Acme' gives 'acmens' + 2 digits, 'Q' gives 'qns' + 5
 * digits, '' or '株式会社' gives 'ns' + 6 digits. Always 8-32 characters of [a-z0-9].
 */
export function generateNamespace(companyName: string, now: Date): string {
  const base = companyName
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, NAMESPACE_MAX_LENGTH);
  if (base.length >= NAMESPACE_MIN_LENGTH) return base;
  const padded = `${base}ns`;
  const missing = NAMESPACE_MIN_LENGTH - padded.length;
  if (missing <= 0) return padded;
  const time = now.getTime();
  // An invalid date has no digits to give: zeros keep the result well-formed.
  const digits = Number.isFinite(time) ? String(Math.abs(Math.trunc(time))) : '';
  return padded + digits.padStart(missing, '0').slice(-missing);
}

/**
 * The namespaces to store for a tenant: the given ones normalised, or one generated from the
 * company name when none is left.
 */
export function resolveNamespaces(
  companyName: string,
  namespaces: readonly string[],
  now: Date,
): string[] {
  const normalized = normalizeNamespaces(namespaces);
  return normalized.length > 0 ? normalized : [generateNamespace(companyName, now)];
}

// ---------------------------------------------------------------------------------------------
// API shapes of the tenants calls (spec part 1, sections 3 and 7).

/** Longest company name we store; far beyond any real one. */
export const COMPANY_NAME_MAX_LENGTH = 200;
/** Longest namespace a person may give (a generated one has at most 32 characters). */
export const NAMESPACE_INPUT_MAX_LENGTH = 100;
/** Most namespaces one tenant may have. */
export const NAMESPACES_PER_TENANT_MAX = 50;

/** PostgreSQL's integer range: ids are `serial` columns. */
export const DATABASE_ID_MAX = INT4_ID_MAX;

/**
 * A required field as a schema: absent, null or (for text) blank gives the dialog's alert text
 * (spec 5) as a custom issue, so the server passes it on word for word.
 */
export function requiredWholeNumber(field: string, min: number, max: number) {
  return z
    .preprocess(
      (value) => value ?? null,
      z
        .number({ error: `${field} must be a number` })
        .int({ error: `${field} must be a whole number` })
        .min(min, { error: `${field} must be between ${min} and ${max}` })
        .max(max, { error: `${field} must be between ${min} and ${max}` })
        .nullable(),
    )
    .refine((value) => value !== null, { error: REQUIRED_FIELDS_MESSAGE })
    .transform((value) => value as number);
}

/** Body of POST api/tenants and PUT api/tenants/{id} (spec 7). */
export const tenantWriteSchema = z.object(
  {
    companyName: z
      .preprocess(
        (value) => value ?? '',
        text({ name: 'companyName', max: COMPANY_NAME_MAX_LENGTH, trim: true }),
      )
      .refine((value) => value.length > 0, { error: REQUIRED_FIELDS_MESSAGE }),
    domicileCountryId: requiredWholeNumber('domicileCountryId', COUNTRY_ID_MIN, COUNTRY_ID_MAX),
    namespaces: z
      .array(
        text({
          name: 'A namespace',
          max: NAMESPACE_INPUT_MAX_LENGTH,
          typeError: 'Each namespace must be a string',
          trim: true,
        }),
        { error: 'namespaces must be an array of strings' },
      )
      // Counted again after normalising (below); this bound keeps the work before it small.
      .max(NAMESPACES_PER_TENANT_MAX * 2, {
        error: `A tenant can have at most ${NAMESPACES_PER_TENANT_MAX} namespaces`,
      })
      .nullish()
      .transform((namespaces) => normalizeNamespaces(namespaces ?? []))
      .refine((namespaces) => namespaces.length <= NAMESPACES_PER_TENANT_MAX, {
        error: `A tenant can have at most ${NAMESPACES_PER_TENANT_MAX} namespaces`,
      }),
  },
  { error: 'Expected a tenant object with companyName, domicileCountryId and namespaces' },
);
export type TenantWriteInput = z.input<typeof tenantWriteSchema>;
export type TenantWrite = z.output<typeof tenantWriteSchema>;

/** One row of GET api/tenants, and the answer of POST and PUT. */
export const tenantSchema = z.object({
  id: z.number().int(),
  companyName: z.string(),
  domicileCountryId: z.number().int(),
  domicileCountryName: z.string(),
  namespaces: z.array(z.string()).describe('Sorted by code point'),
});
export type Tenant = z.infer<typeof tenantSchema>;

export const tenantListSchema = z.array(tenantSchema);

/** The `{id}` of PUT and DELETE api/tenants/{id}. */
export const tenantIdParamsSchema = idParamsSchema;

/** The tenants calls (method and path; see api.ts). */
export const tenantsApi = {
  list: apiRoute('GET', '/api/tenants'),
  create: apiRoute('POST', '/api/tenants'),
  update: apiRoute('PUT', '/api/tenants/:id'),
  delete: apiRoute('DELETE', '/api/tenants/:id'),
  export: apiRoute('GET', '/api/tenants/export'),
} as const;
