import { expect, test, type Locator, type Page } from '@playwright/test';
import { maintenanceURL } from '../playwright.config.ts';
import {
  admin,
  describeSignedInAs,
  expectNoSeriousAccessibilityViolations,
  staffMember,
} from './helpers.ts';
import { bodyRows } from './reference-data-helpers.ts';

// Spec part 2: section 2 ("Migrations", "Database Scripts"), 4, 6 and 8. These run on the second
// server of playwright.config.ts, whose database starts one migration behind
// (MIGRATE_ON_START_HOLD_BACK=1), in this order: the upgrade, what staff see, a script.
// 1280×720: a laptop's window, where the Scripts table must fit (issue 32).
test.use({ baseURL: maintenanceURL, viewport: { width: 1280, height: 720 } });
test.describe.configure({ mode: 'serial' });

async function goToMigrations(page: Page): Promise<void> {
  await page.goto('/dashboard/migrations');
  await expect(page.getByRole('heading', { level: 1, name: 'Database Migrations' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Connection Status' })).toContainText('connected');
}

async function goToDatabaseScripts(page: Page): Promise<Locator> {
  await page.goto('/dashboard/database-scripts');
  await expect(page.getByRole('heading', { level: 1, name: 'Database Scripts' })).toBeVisible();
  const scripts = page.getByRole('table', { name: 'Scripts' });
  await expect(bodyRows(scripts).first()).toBeVisible();
  return scripts;
}

/** A script's row in the Scripts table. */
const scriptRow = (scripts: Locator, name: string) =>
  scripts.getByRole('row').filter({ has: scripts.page().getByRole('cell', { name, exact: true }) });

/** Every column header of `table` lies wholly inside the window (nothing pushed out of view). */
async function expectEveryHeaderInView(table: Locator): Promise<void> {
  const headers = table.getByRole('columnheader');
  await expect(headers).toHaveText(['Name', 'Description', 'Type', 'Version']);
  for (const header of await headers.all()) await expect(header).toBeInViewport({ ratio: 1 });
}

const pendingTable = (page: Page) => page.getByRole('table', { name: 'Pending Migrations' });
const appliedTable = (page: Page) => page.getByRole('table', { name: 'Applied Migrations' });

describeSignedInAs('Database migrations as an admin', admin, () => {
  test('sees the newest migration pending, upgrades to it and sees it applied', async ({
    page,
  }) => {
    await goToMigrations(page);
    const pending = bodyRows(pendingTable(page));
    await expect(pending).toHaveCount(1);
    const newest = (await pending.first().getByRole('cell').first().textContent()) ?? '';
    expect(Number(newest)).toBeGreaterThan(1);
    // The version alone: the card also shows the last migration's time, which may hold '14'.
    const currentVersion = page
      .getByRole('group', { name: 'Current Version' })
      .getByText(newest, { exact: true });
    await expect(currentVersion).toHaveCount(0);
    await expectNoSeriousAccessibilityViolations(page);

    await page.getByRole('button', { name: 'Upgrade to Latest' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Successfully applied 1 migration(s)' }),
    ).toBeVisible();
    await expect(pendingTable(page)).toContainText(
      'No pending migrations. The database is up to date.',
    );
    await expect(bodyRows(appliedTable(page)).first().getByRole('cell').first()).toHaveText(newest);
    await expect(currentVersion).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upgrade to Latest' })).toBeDisabled();
  });
});

describeSignedInAs('Database maintenance as staff', staffMember, () => {
  test('sees the restricted messages and no admin action', async ({ page }) => {
    await goToMigrations(page);
    // The database's name, PostgreSQL's version and that it is embedded: no path, host or port.
    const database = page.getByRole('group', { name: 'Database', exact: true });
    await expect(database).toContainText(/console\s*PostgreSQL \d+(\.\d+)*, embedded/);
    await expect(database).not.toContainText('127.0.0.1');
    await expect(database).not.toContainText('/');
    await expect(database).not.toContainText(/:\d+/);
    await expect(
      page.getByText('Migration operations are restricted to authorized administrators only.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upgrade to Latest' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Apply Seed Data' })).toHaveCount(0);

    const scripts = await goToDatabaseScripts(page);
    await expect(
      page.getByText('Script execution is restricted to authorized administrators only.'),
    ).toBeVisible();
    // By keyboard: Enter (then Space) on the focused row selects it.
    const row = scriptRow(scripts, 'Entities per tenant');
    await row.focus();
    await page.keyboard.press('Enter');
    await expect(row).toHaveAttribute('aria-selected', 'true');
    const other = scriptRow(scripts, 'Purge expired sessions');
    await other.focus();
    await page.keyboard.press('Space');
    await expect(other).toHaveAttribute('aria-selected', 'true');
    await expect(row).toHaveAttribute('aria-selected', 'false');
    await expect(page.getByRole('group', { name: 'Purge expired sessions' })).toBeVisible();
    await row.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'View Script' }).click();
    await expect(page.getByLabel('Entities per tenant SQL')).toContainText('from tenants');
    await expect(page.getByRole('button', { name: 'Execute Script' })).toHaveCount(0);
  });
});

describeSignedInAs('Database scripts as an admin', admin, () => {
  test('executes a report script and sees it in Recent Executions', async ({ page }) => {
    const scripts = await goToDatabaseScripts(page);
    await expectEveryHeaderInView(scripts);
    const row = scriptRow(scripts, 'Entities per tenant');
    await row.getByRole('cell').nth(1).click();
    await expect(row).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('button', { name: 'Execute Script' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Execute script?' });
    await expect(dialog).toContainText('"Entities per tenant"');
    await dialog.getByRole('button', { name: 'Execute' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'Script "Entities per tenant" executed successfully' }),
    ).toBeVisible();
    const executions = page.getByRole('table', { name: 'Recent Executions' });
    const latest = bodyRows(executions).first();
    await expect(latest).toContainText('Entities per tenant');
    await expect(latest).toContainText('Success');
    await expect(latest).toContainText(admin.email);
    await expectNoSeriousAccessibilityViolations(page);
  });
});
