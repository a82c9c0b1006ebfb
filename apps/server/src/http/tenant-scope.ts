import type { AuthenticatedUser } from '../auth/index.ts';
import { holdsRole } from '../auth/index.ts';
import { forbidden, notFound } from './errors.ts';

/**
 * The tenant whose rows a caller may read (spec 1: tenant-portal users view their own data):
 * staff (and admins) read every tenant, or the one they ask for; a tenant user reads only its own
 * tenant (`tid` of its token). A tenant user naming another tenant gets 404, as for a tenant that
 * does not exist: the answer never tells whether another tenant's id is real.
 */
export function readableTenant(
  user: AuthenticatedUser,
  requestedTenantId: number | undefined,
): number | undefined {
  if (holdsRole(user.roles, 'staff')) return requestedTenantId;
  if (!holdsRole(user.roles, 'tenant') || user.tenantId === undefined) throw forbidden();
  if (requestedTenantId !== undefined && requestedTenantId !== user.tenantId) {
    throw notFound(`Tenant ${requestedTenantId} not found.`);
  }
  return user.tenantId;
}
