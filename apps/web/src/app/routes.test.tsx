import { describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { resetAppConfig } from '@/lib/app-config';
import './testing/dom';
import { renderScreen } from './testing/screen';
import { matchRoutesAt } from './router';
import { paths, routes } from './routes';
import type { AppRoute } from './route-types';

function deepestId(path: string): string | undefined {
  return matchRoutesAt(path).at(-1)?.id;
}

function allRoutes(table: AppRoute[]): AppRoute[] {
  return table.flatMap((route) => [route, ...allRoutes(route.children ?? [])]);
}

describe('paths', () => {
  it.each([
    [paths.login(), 'Login'],
    [paths.dashboard(), 'Dashboard'],
    [paths.tenants(), 'DashboardTenants'],
    [paths.tenantUsers(), 'DashboardTenantUsers'],
    [paths.entities(), 'DashboardEntities'],
    [paths.entityUsers(), 'DashboardEntityUsers'],
    [paths.events(), 'DashboardEvents'],
    [paths.auditLog(), 'DashboardAuditLog'],
    [paths.countries(), 'DashboardCountries'],
    [paths.documentTypes(), 'DashboardDocumentTypes'],
    [paths.emailSettings(), 'DashboardEmailSettings'],
    [paths.emailTemplates(), 'DashboardEmailTemplates'],
    [paths.emailTemplate(42), 'DashboardEmailTemplateEdit'],
    [paths.newEmailTemplate(), 'DashboardEmailTemplateEdit'],
    [paths.forms(), 'DashboardForms'],
    [paths.formFields(), 'DashboardFormFields'],
    [paths.migrations(), 'DashboardMigrations'],
    [paths.databaseScripts(), 'DashboardDatabaseScripts'],
    [paths.fatfImport(), 'DashboardFatfImport'],
    [paths.fatfData(), 'FatfData'],
    [paths.fatfImportDocs(), 'FatfImportDocs'],
    [paths.terms(), 'Terms'],
    [paths.privacy(), 'Privacy'],
  ])('%s is the route %s', (path, id) => {
    expect(deepestId(path)).toBe(id);
  });

  it('spells the spec URLs', () => {
    expect(paths.migrations()).toBe('/dashboard/migrations');
    expect(paths.databaseScripts()).toBe('/dashboard/database-scripts');
    expect(paths.emailTemplate('a b')).toBe('/dashboard/email-templates/a%20b');
    expect(paths.newEmailTemplate()).toBe('/dashboard/email-templates/new');
  });

  it('leaves unknown URLs to the not-found page', () => {
    expect(deepestId('/nowhere')).toBe('NotFound');
    expect(deepestId('/dashboard/nowhere')).toBe('NotFound');
  });
});

describe('route table', () => {
  it('gives every dashboard screen a breadcrumb', () => {
    for (const path of [paths.dashboard(), paths.countries(), paths.emailTemplate(1)]) {
      expect(matchRoutesAt(path).at(-1)?.handle?.breadcrumb).toMatch(/^breadcrumb\./);
    }
  });

  it.each(
    allRoutes(routes)
      .filter((route) => route.lazy)
      .map((route) => [route.id ?? route.path ?? '(layout)', route] as const),
  )('loads the screen of %s lazily', async (_name, route) => {
    const { Component } = await route.lazy!();
    expect(typeof Component).toBe('function');
  });

  it.each([
    ['countries', () => import('@/features/countries'), 'Countries'],
    ['document-types', () => import('@/features/document-types'), 'Document Types'],
    ['tenants', () => import('@/features/tenants'), 'Tenants'],
    ['tenant-users', () => import('@/features/tenant-users'), 'Tenant Users'],
    ['entities', () => import('@/features/entities'), 'Entities'],
    ['entity-users', () => import('@/features/entity-users'), 'Entity Users'],
    ['events', () => import('@/features/events'), 'Events'],
    ['audit-log', () => import('@/features/audit-log'), 'Audit Log'],
    ['email-settings', () => import('@/features/email-settings'), 'Email Settings'],
    ['email-templates', () => import('@/features/email-templates'), 'Email Templates'],
    ['forms', () => import('@/features/forms'), 'Forms'],
    ['form-fields', () => import('@/features/form-fields'), 'Form Fields'],
    ['migrations', () => import('@/features/migrations'), 'Database Migrations'],
    ['database-scripts', () => import('@/features/database-scripts'), 'Database Scripts'],
    ['fatf-import', () => import('@/features/ratings-import'), 'FATF Ratings Import'],
  ] as const)('features/%s shows its title as the page heading', async (_name, load, title) => {
    const { default: Page } = await load();
    // Built screens load data: they get the shell's providers, and a server that never answers.
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(() => new Promise<Response>(() => {}));
    try {
      renderScreen(<Page />);
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(title);
    } finally {
      cleanup();
      fetch.mockRestore();
      resetAppConfig();
    }
  });
});
