import { z } from 'zod';

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

/** Body of POST api/tenants and PUT api/tenants/{id} (spec 7). */
export const tenantWriteSchema = z.object({
  companyName: z.string().trim().min(1, { error: REQUIRED_FIELDS_MESSAGE }),
  domicileCountryId: z.number({ error: REQUIRED_FIELDS_MESSAGE }).int(),
  namespaces: z.array(z.string()).default([]).transform(normalizeNamespaces),
});
export type TenantWrite = z.infer<typeof tenantWriteSchema>;
