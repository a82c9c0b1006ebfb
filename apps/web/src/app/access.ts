/**
 * What the signed-in user may open (ARCHITECTURE "roles"): staff and admins see everything; a
 * tenant-portal user sees the routes that list `tenant` in their `roles`. The server enforces
 * the same rules; the UI only hides what the server would refuse.
 */
import { hasRole } from '@/lib/signed-in-user';
import type { Role, RouteHandle } from './route-types';

const ROLES: readonly Role[] = ['admin', 'staff', 'tenant'];

/** The roles in the access token's `roles` claim; `admin` implies `staff`. */
export function rolesOf(accessToken: string | null | undefined): Role[] {
  const roles = ROLES.filter((role) => hasRole(accessToken, role));
  if (roles.includes('admin') && !roles.includes('staff')) roles.push('staff');
  return roles;
}

/** Whether a user with these roles may open a route with this handle. */
export function canAccess(handle: RouteHandle | undefined, roles: readonly Role[]): boolean {
  const allowed = handle?.roles;
  if (!allowed) return true;
  return allowed.some(
    (role) => roles.includes(role) || (role === 'staff' && roles.includes('admin')),
  );
}

/** Whether every route of a match chain may be opened (a child inherits its parent's rule). */
export function canAccessAll(
  handles: readonly (RouteHandle | undefined)[],
  roles: readonly Role[],
): boolean {
  return handles.every((handle) => canAccess(handle, roles));
}
