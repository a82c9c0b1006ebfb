/**
 * The shapes of the route table (app/routes.tsx), apart from the table itself: the shell, the
 * guards and the access rules read these types without importing the table, which lazily
 * imports them back.
 */
import type { ComponentType, ReactNode } from 'react';

export type Role = 'admin' | 'staff' | 'tenant';
export type NavGroup = 'tenants' | 'settings';
/** Names of the sidebar icons (the icons themselves live in the shell chunk). */
export type NavIcon =
  | 'tenants'
  | 'tenantUsers'
  | 'entities'
  | 'entityUsers'
  | 'events'
  | 'auditLog'
  | 'countries'
  | 'documentTypes'
  | 'emailSettings'
  | 'emailTemplates'
  | 'forms'
  | 'formFields'
  | 'migrations'
  | 'databaseScripts';

export interface RouteHandle {
  /** i18n key of the breadcrumb text (the spec's "breadcrumb meta"). */
  breadcrumb?: string;
  /** Plain name used by the breadcrumb when there is no breadcrumb key (the spec's "name"). */
  name?: string;
  /** Who may open the route; absent means every signed-in user. `admin` counts as `staff`. */
  roles?: readonly Role[];
  /** The route's sidebar entry, in table order within its group. */
  nav?: { group: NavGroup; label: string; icon: NavIcon };
}

/**
 * A React Router route object (the shape `createBrowserRouter` takes as well): `lazy` resolves to
 * the screen's component, `element` is used by guards and redirects.
 */
export interface AppRoute {
  id?: string;
  path?: string;
  index?: boolean;
  element?: ReactNode;
  lazy?: () => Promise<{ Component: ComponentType }>;
  handle?: RouteHandle;
  children?: AppRoute[];
}
