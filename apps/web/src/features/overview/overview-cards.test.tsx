import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StaffOverview, TenantOverview } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import DashboardHome from '@/app/dashboard-home';
import { setUpScreenTests } from '@/test/screen-tests';

const staffOverview: StaffOverview = {
  audience: 'staff',
  tenants: 2,
  entities: 1_000_000,
  entityUsers: 113,
  eventWorkers: [
    { worker: 'audit-trail', waiting: 0, failed: 0, oldestWaitingSeconds: 0 },
    { worker: 'notifications', waiting: 3, failed: 1, oldestWaitingSeconds: 3 * 3600 + 300 },
  ],
  lastRatingsImport: {
    id: 7,
    status: 'completed',
    startedAt: '2026-11-28T08:30:00.000Z',
    records: 12,
    imported: 10,
  },
  mails: { sent: 5, failed: 1 },
  pendingMigrations: 1,
  asOf: '2026-11-28T09:00:00.000Z',
};

const tenantOverview: TenantOverview = {
  audience: 'tenant',
  entities: 30,
  entityUsers: 57,
  events: { waiting: 2, failed: 0 },
  asOf: '2026-11-28T09:00:00.000Z',
};

function renderDashboard() {
  return renderScreen(<DashboardHome />, { path: '/dashboard' });
}

function card(title: string) {
  const link = screen.getByRole('link', { name: title });
  const element = link.closest('[data-slot="card"]');
  if (!(element instanceof HTMLElement)) throw new Error(`No card titled ${title}`);
  return element;
}

setUpScreenTests(STAFF_USER);

describe('the dashboard overview', () => {
  it('keeps the welcome text above the figures', async () => {
    mockApi({ 'GET /api/overview': staffOverview });
    renderDashboard();
    expect(
      screen.getByRole('heading', { level: 1, name: 'Welcome to the administration console' }),
    ).toBeVisible();
    expect(await screen.findByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
  });

  it('says it is loading in a status region while the figures are on their way', async () => {
    mockApi({ 'GET /api/overview': () => new Promise<never>(() => undefined) });
    renderDashboard();
    const loading = await screen.findByRole('status', { name: 'Loading the overview' });
    expect(loading).toHaveAttribute('aria-busy', 'true');
  });

  it("shows staff the console's figures, each card a link to its screen", async () => {
    mockApi({ 'GET /api/overview': staffOverview });
    renderDashboard();
    await screen.findByRole('heading', { level: 2, name: 'Overview' });

    expect(within(card('Tenants')).getByText('2')).toBeVisible();
    expect(within(card('Entities')).getByText('1,000,000')).toBeVisible();
    expect(within(card('Entity Users')).getByText('113')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Tenants' })).toHaveAttribute(
      'href',
      '/dashboard/tenants',
    );
    expect(screen.getByRole('link', { name: 'Last FATF import' })).toHaveAttribute(
      'href',
      '/dashboard/fatf-import',
    );
    expect(screen.getByRole('link', { name: 'Database Migrations' })).toHaveAttribute(
      'href',
      '/dashboard/migrations',
    );

    const workers = within(card('Events')).getByRole('table', {
      name: 'Event records per worker',
    });
    expect(within(workers).getByRole('row', { name: /notifications/ })).toHaveTextContent(
      'notifications313 h 5 min',
    );
    expect(within(workers).getByRole('row', { name: /audit-trail/ })).toHaveTextContent(
      'audit-trail00—',
    );
    expect(within(card('Last FATF import')).getByText('Completed')).toBeVisible();
    expect(within(card('Last FATF import')).getByText('10 of 12 imported')).toBeVisible();
    expect(within(card('Mail in the last 24 hours')).getByText('5 sent, 1 failed')).toBeVisible();
    expect(within(card('Database Migrations')).getByText('1 migration pending')).toBeVisible();
  });

  it("shows a tenant user its own tenant's figures, without the staff cards", async () => {
    mockApi({ 'GET /api/overview': tenantOverview });
    renderDashboard();
    await screen.findByRole('heading', { level: 2, name: 'Overview' });

    expect(within(card('Entities')).getByText('30')).toBeVisible();
    expect(within(card('Entity Users')).getByText('57')).toBeVisible();
    expect(within(card('Events')).getByText('2 waiting, 0 failed')).toBeVisible();
    for (const staffOnly of ['Tenants', 'Last FATF import', 'Database Migrations']) {
      expect(screen.queryByRole('link', { name: staffOnly })).toBeNull();
    }
  });

  it('says no import ran yet, and that migrations are up to date', async () => {
    mockApi({
      'GET /api/overview': { ...staffOverview, lastRatingsImport: null, pendingMigrations: 0 },
    });
    renderDashboard();
    expect(await screen.findByText('No import yet.')).toBeVisible();
    expect(screen.getByText('Up to date: no migration pending.')).toBeVisible();
  });

  it('shows a failed load as an API error with Retry, which loads again', async () => {
    const api = mockApi({ 'GET /api/overview': jsonResponse({ message: 'down' }, 503) });
    renderDashboard();
    expect(await screen.findByText(/API Error: .*\(Status: 503\)/)).toBeVisible();

    api.set('GET /api/overview', staffOverview);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
  });
});
