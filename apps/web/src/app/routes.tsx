/**
 * The one route table of the app (spec part 1, section 2; part 2, section 2). The guards, the
 * sidebar and the breadcrumb all read it: a screen is added here and nowhere else.
 *
 * Every screen is loaded lazily (`lazy`), so each is its own chunk and the login screen stays
 * small. `handle` carries the route's metadata: breadcrumb text (an i18n key), the roles that may
 * open it, and its sidebar entry.
 */
import type { ComponentType } from 'react';
import { Navigate } from 'react-router';
import { RedirectIfSignedIn, RequireSignIn } from './guards';
import { paths } from './paths';
import type { AppRoute, Role } from './route-types';

export { NEW_EMAIL_TEMPLATE_ID, paths } from './paths';

type ScreenModule = () => Promise<{ default: ComponentType }>;

/**
 * The route's component from a module whose default export is the screen, loaded together with
 * i18next (`lib/i18n.ts` initialises it when first imported), so every screen can use
 * `useTranslation`.
 */
function screen(load: ScreenModule): AppRoute['lazy'] {
  return async () => {
    const [, module] = await Promise.all([import('@/lib/i18n'), load()]);
    return { Component: module.default };
  };
}

/** A screen shown before sign-in that must stay small: its texts come from boot-texts.ts. */
function bootScreen(load: ScreenModule): AppRoute['lazy'] {
  return async () => ({ Component: (await load()).default });
}

const STAFF: readonly Role[] = ['staff'];
/** Tenant-portal screens: staff and tenant users (ARCHITECTURE "roles"). */
const STAFF_AND_TENANT: readonly Role[] = ['staff', 'tenant'];

export const routes: AppRoute[] = [
  {
    element: <RedirectIfSignedIn />,
    children: [
      {
        id: 'Login',
        path: '/login',
        lazy: bootScreen(() => import('./login-page')),
      },
    ],
  },
  { path: '/', element: <Navigate to={paths.dashboard()} replace /> },
  {
    element: <RequireSignIn />,
    children: [
      {
        // The dashboard shell: sidebar, breadcrumb header, role check of the matched routes.
        lazy: screen(() => import('./shell/dashboard-layout')),
        children: [
          {
            path: '/dashboard',
            children: [
              {
                id: 'Dashboard',
                index: true,
                handle: { breadcrumb: 'breadcrumb.dashboard' },
                lazy: screen(() => import('./dashboard-home')),
              },
              {
                id: 'DashboardTenants',
                path: 'tenants',
                handle: {
                  breadcrumb: 'breadcrumb.tenants',
                  roles: STAFF,
                  nav: { group: 'tenants', label: 'nav.tenants', icon: 'tenants' },
                },
                lazy: screen(() => import('@/features/tenants')),
              },
              {
                id: 'DashboardTenantUsers',
                path: 'tenant-users',
                handle: {
                  breadcrumb: 'breadcrumb.tenantUsers',
                  roles: STAFF,
                  nav: { group: 'tenants', label: 'nav.tenantUsers', icon: 'tenantUsers' },
                },
                lazy: screen(() => import('@/features/tenant-users')),
              },
              {
                id: 'DashboardEntities',
                path: 'entities',
                handle: {
                  breadcrumb: 'breadcrumb.entities',
                  roles: STAFF_AND_TENANT,
                  nav: { group: 'tenants', label: 'nav.entities', icon: 'entities' },
                },
                lazy: screen(() => import('@/features/entities')),
              },
              {
                id: 'DashboardEntityUsers',
                path: 'entity-users',
                handle: {
                  breadcrumb: 'breadcrumb.entityUsers',
                  roles: STAFF_AND_TENANT,
                  nav: { group: 'tenants', label: 'nav.entityUsers', icon: 'entityUsers' },
                },
                lazy: screen(() => import('@/features/entity-users')),
              },
              {
                id: 'DashboardEvents',
                path: 'events',
                handle: {
                  breadcrumb: 'breadcrumb.events',
                  roles: STAFF_AND_TENANT,
                  nav: { group: 'tenants', label: 'nav.events', icon: 'events' },
                },
                lazy: screen(() => import('@/features/events')),
              },
              {
                id: 'DashboardAuditLog',
                path: 'audit-log',
                handle: {
                  breadcrumb: 'breadcrumb.auditLog',
                  roles: STAFF,
                  nav: { group: 'tenants', label: 'nav.auditLog', icon: 'auditLog' },
                },
                lazy: screen(() => import('@/features/audit-log')),
              },
              {
                id: 'DashboardCountries',
                path: 'countries',
                handle: {
                  breadcrumb: 'breadcrumb.countries',
                  roles: STAFF,
                  nav: { group: 'settings', label: 'nav.countries', icon: 'countries' },
                },
                lazy: screen(() => import('@/features/countries')),
              },
              {
                id: 'DashboardDocumentTypes',
                path: 'document-types',
                handle: {
                  breadcrumb: 'breadcrumb.documentTypes',
                  roles: STAFF,
                  nav: { group: 'settings', label: 'nav.documentTypes', icon: 'documentTypes' },
                },
                lazy: screen(() => import('@/features/document-types')),
              },
              {
                id: 'DashboardEmailSettings',
                path: 'email-settings',
                handle: {
                  breadcrumb: 'breadcrumb.emailSettings',
                  roles: STAFF,
                  nav: { group: 'settings', label: 'nav.emailSettings', icon: 'emailSettings' },
                },
                lazy: screen(() => import('@/features/email-settings')),
              },
              {
                path: 'email-templates',
                handle: {
                  breadcrumb: 'breadcrumb.emailTemplates',
                  roles: STAFF,
                  nav: { group: 'settings', label: 'nav.emailTemplates', icon: 'emailTemplates' },
                },
                children: [
                  {
                    id: 'DashboardEmailTemplates',
                    index: true,
                    lazy: screen(() => import('@/features/email-templates')),
                  },
                  {
                    // ':id' is a template id, or NEW_EMAIL_TEMPLATE_ID to create one.
                    id: 'DashboardEmailTemplateEdit',
                    path: ':id',
                    handle: { breadcrumb: 'breadcrumb.emailTemplateEdit' },
                    lazy: screen(
                      () => import('@/features/email-templates/email-template-edit-page'),
                    ),
                  },
                ],
              },
              {
                id: 'DashboardForms',
                path: 'forms',
                handle: {
                  breadcrumb: 'breadcrumb.forms',
                  roles: STAFF,
                  nav: { group: 'settings', label: 'nav.forms', icon: 'forms' },
                },
                lazy: screen(() => import('@/features/forms')),
              },
              {
                id: 'DashboardFormFields',
                path: 'form-fields',
                handle: {
                  breadcrumb: 'breadcrumb.formFields',
                  roles: STAFF,
                  nav: { group: 'settings', label: 'nav.formFields', icon: 'formFields' },
                },
                lazy: screen(() => import('@/features/form-fields')),
              },
              {
                id: 'DashboardMigrations',
                path: 'migrations',
                handle: {
                  breadcrumb: 'breadcrumb.migrations',
                  roles: STAFF,
                  nav: { group: 'settings', label: 'nav.migrations', icon: 'migrations' },
                },
                lazy: screen(() => import('@/features/migrations')),
              },
              {
                id: 'DashboardDatabaseScripts',
                path: 'database-scripts',
                handle: {
                  breadcrumb: 'breadcrumb.databaseScripts',
                  roles: STAFF,
                  nav: { group: 'settings', label: 'nav.databaseScripts', icon: 'databaseScripts' },
                },
                lazy: screen(() => import('@/features/database-scripts')),
              },
              {
                id: 'DashboardFatfImport',
                path: 'fatf-import',
                handle: { breadcrumb: 'breadcrumb.fatfImport', roles: STAFF },
                lazy: screen(() => import('@/features/ratings-import')),
              },
            ],
          },
          {
            // Shown after a ratings import (spec part 2); a signed-in page outside /dashboard.
            id: 'FatfData',
            path: '/fatf/data',
            handle: { breadcrumb: 'breadcrumb.fatfData', roles: STAFF },
            lazy: screen(() => import('@/features/ratings-import/fatf-data-page')),
          },
        ],
      },
    ],
  },
  // Public documentation pages (no sign-in): the ratings import guide, opened in a new window,
  // and the legal pages linked from the login screen.
  {
    id: 'FatfImportDocs',
    path: '/docs/fatf-import',
    lazy: screen(() => import('@/features/ratings-import/docs-page')),
  },
  { id: 'Terms', path: '/docs/terms', lazy: screen(() => import('./legal-pages/terms-page')) },
  {
    id: 'Privacy',
    path: '/docs/privacy',
    lazy: screen(() => import('./legal-pages/privacy-page')),
  },
  { id: 'NotFound', path: '*', lazy: screen(() => import('./not-found-page')) },
];
