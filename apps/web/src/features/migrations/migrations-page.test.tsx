import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MigrationStatus } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import { setUpScreenTests } from '@/test/screen-tests';
import { columnHeaders } from '@/test/queries';
import MigrationsPage from '.';

const STATUS: MigrationStatus = {
  currentVersion: 11,
  databaseName: 'console',
  serverVersion: '18.4',
  embedded: true,
  connectionStatus: 'connected',
  lastMigrationDate: '2026-03-01T10:15:00.000Z',
  appliedMigrations: [
    { version: 11, description: 'Event work signal', appliedOn: '2026-03-01T10:15:00.000Z' },
    { version: 10, description: 'List generations', appliedOn: '2026-02-01T09:00:00.000Z' },
  ],
  pendingMigrations: [
    { version: 12, description: 'Script executions', className: 'ScriptExecutions' },
    { version: 13, description: 'Something else', className: 'SomethingElse' },
  ],
  isUserAuthorizedForMigrations: true,
  canUpgrade: true,
};
const UP_TO_DATE: MigrationStatus = {
  ...STATUS,
  currentVersion: 13,
  pendingMigrations: [],
  canUpgrade: false,
};

setUpScreenTests(STAFF_USER);

const renderPage = () => renderScreen(<MigrationsPage />, { path: '/dashboard/migrations' });
const card = (name: string) => screen.getByRole('group', { name });
const firstCells = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('migrations screen', () => {
  it('shows the status cards and both tables in their orders', async () => {
    mockApi({ 'GET /svc/migrations/status': STATUS });
    renderPage();
    expect(await within(card('Database')).findByText('console')).toBeVisible();
    expect(within(card('Database')).getByText('PostgreSQL 18.4, embedded')).toBeVisible();
    expect(within(card('Current Version')).getByText('11')).toBeVisible();
    expect(
      within(card('Current Version')).getByText('Last migration: 2026-03-01 10:15'),
    ).toBeVisible();
    expect(within(card('Connection Status')).getByText('connected')).toHaveClass('text-green-700');
    expect(columnHeaders(screen.getByRole('table', { name: 'Pending Migrations' }))).toEqual([
      'Version',
      'Description',
      'Class Name',
    ]);
    expect(columnHeaders(screen.getByRole('table', { name: 'Applied Migrations' }))).toEqual([
      'Version',
      'Description',
      'Applied On',
    ]);
    expect(firstCells('Pending Migrations')).toEqual(['12', '13']);
    expect(firstCells('Applied Migrations')).toEqual(['11', '10']);
  });

  it('says which PostgreSQL server, or that its version is unknown while unreachable', async () => {
    const api = mockApi({
      'GET /svc/migrations/status': { ...STATUS, databaseName: 'kyc', embedded: false },
    });
    const user = userEvent.setup();
    renderPage();
    expect(await within(card('Database')).findByText('PostgreSQL 18.4, server')).toBeVisible();
    expect(within(card('Database')).getByText('kyc')).toBeVisible();
    api.set('GET /svc/migrations/status', {
      ...STATUS,
      serverVersion: null,
      connectionStatus: 'error: the database is not available',
    });
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(
      await within(card('Database')).findByText('PostgreSQL (version unknown), embedded'),
    ).toBeVisible();
  });

  it('shows a status with an error in red', async () => {
    mockApi({
      'GET /svc/migrations/status': {
        ...STATUS,
        connectionStatus: 'error: the database is not available',
      },
    });
    renderPage();
    expect(await screen.findByText('error: the database is not available')).toHaveClass(
      'text-red-700',
    );
  });

  it('upgrades to the highest pending version and says how many were applied', async () => {
    const api = mockApi({
      'GET /svc/migrations/status': STATUS,
      'POST /svc/migrations/apply/13': async () => {
        api.set('GET /svc/migrations/status', UP_TO_DATE);
        return { success: true, message: 'ok', executedMigrations: [12, 13], errorDetails: null };
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Upgrade to Latest' }));
    expect(await screen.findAllByText('Successfully applied 2 migration(s)')).not.toHaveLength(0);
    expect(api.callsTo('POST', '/svc/migrations/apply/13')).toHaveLength(1);
    expect(
      await screen.findByText('No pending migrations. The database is up to date.'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Upgrade to Latest' })).toBeDisabled();
  });

  it('shows Processing... while a migration runs', async () => {
    let finish: (value: unknown) => void = () => {};
    mockApi({
      'GET /svc/migrations/status': STATUS,
      'POST /svc/migrations/apply/13': () => new Promise((resolve) => (finish = resolve)),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Upgrade to Latest' }));
    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Apply Seed Data' })).toBeDisabled();
    finish({ success: true, message: 'ok', executedMigrations: [12, 13], errorDetails: null });
    expect(await screen.findByRole('button', { name: 'Upgrade to Latest' })).toBeVisible();
  });

  it('shows the failure details and the toast Migration failed', async () => {
    mockApi({
      'GET /svc/migrations/status': STATUS,
      'POST /svc/migrations/apply/13': {
        success: false,
        message: 'Migration failed',
        executedMigrations: [12],
        errorDetails: 'Migration 13 (SomethingElse) failed: division by zero',
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Upgrade to Latest' }));
    expect(
      await screen.findByText('Migration 13 (SomethingElse) failed: division by zero'),
    ).toBeVisible();
    expect(await screen.findByText('Migration failed')).toBeVisible();
  });

  it('says HTTP error! status when the call itself fails', async () => {
    mockApi({
      'GET /svc/migrations/status': STATUS,
      'POST /svc/migrations/apply/13': jsonResponse({ message: 'Forbidden' }, 403),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Upgrade to Latest' }));
    expect(await screen.findByText('HTTP error! status: 403')).toBeVisible();
  });

  it('applies the seed data, and says when it failed', async () => {
    const api = mockApi({
      'GET /svc/migrations/status': UP_TO_DATE,
      'POST /svc/migrations/seed': { success: true, message: 'ok', errorDetails: null },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Apply Seed Data' }));
    expect(await screen.findAllByText('Seed data applied successfully')).not.toHaveLength(0);
    api.set('POST /svc/migrations/seed', { success: false, message: 'x', errorDetails: 'y' });
    await user.click(screen.getByRole('button', { name: 'Apply Seed Data' }));
    expect(await screen.findAllByText('Seed data application failed')).not.toHaveLength(0);
  });

  it('shows the restricted message instead of the actions when not authorized', async () => {
    mockApi({
      'GET /svc/migrations/status': {
        ...STATUS,
        isUserAuthorizedForMigrations: false,
        canUpgrade: false,
      },
    });
    renderPage();
    expect(
      await screen.findByText(
        'Migration operations are restricted to authorized administrators only.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Upgrade to Latest' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Apply Seed Data' })).toBeNull();
  });

  it('says Failed to fetch migration status with the status code', async () => {
    mockApi({ 'GET /svc/migrations/status': jsonResponse({ message: 'boom' }, 503) });
    renderPage();
    expect(await screen.findByText('Failed to fetch migration status: 503')).toBeVisible();
  });
});
