import { z } from 'zod';
import { idParamsSchema } from './ids.ts';
import { DATABASE_ID_MAX, REQUIRED_FIELDS_MESSAGE, requiredWholeNumber } from './tenants.ts';
import { text } from './text.ts';
import { apiRoute } from './api.ts';

/** Rules of tenant users (spec part 1, sections 3, 5 and 7), shared by the dialog and the server. */

/** The longest address SMTP allows (RFC 5321: 254 characters in a path). */
export const EMAIL_MAX_LENGTH = 254;

export const INVALID_EMAIL_MESSAGE = 'Enter a valid email address';

/**
 * A tenant user's email as stored and matched at sign-in: trimmed and lower-cased (sign-in
 * compares addresses case-insensitively).
 */
export function normalizeTenantUserEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** True for an address of the usual form local@domain.tld (zod's email pattern). */
export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && z.regexes.email.test(email);
}

/**
 * Body of POST api/tenantusers {email, tenantId}: both required (spec 5, the dialog's alert
 * 'Please fill in all required fields.'), the email well-formed, stored normalised.
 */
export const tenantUserCreateSchema = z.object(
  {
    email: z
      .preprocess(
        (value) => value ?? '',
        // Longer than SMTP allows is not a valid address: the dialog's own message.
        text({
          name: 'email',
          max: EMAIL_MAX_LENGTH,
          trim: true,
          tooLongError: INVALID_EMAIL_MESSAGE,
        }),
      )
      .transform(normalizeTenantUserEmail)
      .superRefine((email, ctx) => {
        if (email.length === 0) {
          ctx.addIssue({ code: 'custom', message: REQUIRED_FIELDS_MESSAGE });
        } else if (!isValidEmail(email)) {
          ctx.addIssue({ code: 'custom', message: INVALID_EMAIL_MESSAGE });
        }
      }),
    tenantId: requiredWholeNumber('tenantId', 1, DATABASE_ID_MAX),
  },
  { error: 'Expected a tenant user object with email and tenantId' },
);
export type TenantUserCreateInput = z.input<typeof tenantUserCreateSchema>;
export type TenantUserCreate = z.output<typeof tenantUserCreateSchema>;

/** One row of GET api/tenantusers, and the answer of POST. */
export const tenantUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  tenantId: z.number().int(),
  tenantCompanyName: z.string(),
});
export type TenantUser = z.infer<typeof tenantUserSchema>;

export const tenantUserListSchema = z.array(tenantUserSchema);

/** The `{id}` of DELETE api/tenantusers/{id}. */
export const tenantUserIdParamsSchema = idParamsSchema;

/** The tenant users calls (method and path; see api.ts). */
export const tenantUsersApi = {
  list: apiRoute('GET', '/api/tenantusers'),
  create: apiRoute('POST', '/api/tenantusers'),
  delete: apiRoute('DELETE', '/api/tenantusers/:id'),
  export: apiRoute('GET', '/api/tenantusers/export'),
} as const;
