import { sql, type Kysely } from 'kysely';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';

/** What a signed-in person may be. Roles are re-resolved every time an access token is minted. */
export const ROLES = ['admin', 'staff', 'tenant'] as const;
export type Role = (typeof ROLES)[number];

export interface ResolvedRoles {
  roles: Role[];
  /** Set when `roles` includes 'tenant': the tenant whose data this user may see. */
  tenantId?: number;
}

export type RoleConfig = Pick<AppConfig, 'adminEmails' | 'staffEmails'>;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The roles of an email address (see ARCHITECTURE.md, roles): admin from ADMIN_EMAILS (an admin
 * is staff too), staff from STAFF_EMAILS (addresses or '@domain' entries), tenant when the address
 * is registered as a tenant user. An empty list means the person may not use the console.
 */
export async function resolveRoles(
  db: Kysely<Database>,
  config: RoleConfig,
  email: string,
): Promise<ResolvedRoles> {
  const address = normaliseEmail(email);
  const roles: Role[] = [];
  if (config.adminEmails.includes(address)) roles.push('admin', 'staff');
  else if (isStaffEmail(config.staffEmails, address)) roles.push('staff');

  const tenantUser = await db
    .selectFrom('tenant_users')
    .select('tenant_id')
    // Stored lower-cased, but compare lower-cased anyway: a row written by hand must still match.
    .where(sql<string>`lower(email)`, '=', address)
    .executeTakeFirst();
  if (!tenantUser) return { roles };
  return { roles: [...roles, 'tenant'], tenantId: tenantUser.tenant_id };
}

function isStaffEmail(staffEmails: readonly string[], address: string): boolean {
  const at = address.lastIndexOf('@');
  if (at <= 0) return false;
  const domain = address.slice(at);
  return staffEmails.includes(address) || staffEmails.includes(domain);
}

/** True when the user holds `role`; an admin also holds every staff permission. */
export function holdsRole(roles: readonly Role[], role: Role): boolean {
  return roles.includes(role) || (role === 'staff' && roles.includes('admin'));
}
