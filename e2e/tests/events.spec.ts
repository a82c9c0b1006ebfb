import { expect, test } from '@playwright/test';
import {
  describeSignedInAs,
  expectNoSeriousAccessibilityViolations,
  portalUser,
  signInAs,
  staffMember,
  toast,
} from './helpers.ts';
import {
  COLUMN,
  columnTexts,
  eventRow,
  eventRows,
  eventsApiAs,
  goToEvents,
  serverPageIndicator,
  showingEntries,
  totalEntries,
} from './events-helpers.ts';

// Spec part 1: section 2 ("Events screen"), section 4 (status badge, reset), section 7 (Events),
// section 8 ('HTTP error! status: {status}') and section 9 (eventsPageSize, server paging).
// The demo seed records about 150 events; the workers run in the server.

describeSignedInAs('as a staff member', staffMember, () => {
  test('pages on the server: Page 1 of N, Next, Showing 11 to 20 of n entries', async ({
    page,
  }) => {
    const table = await goToEvents(page);
    await expect(serverPageIndicator(page)).toHaveText(/^Page 1 of \d+$/);
    const total = await totalEntries(page);
    expect(total).toBeGreaterThan(100);
    const pages = Math.ceil(total / 10);
    await expect(serverPageIndicator(page)).toHaveText(`Page 1 of ${pages}`);
    await expect(showingEntries(page)).toHaveText(`Showing 1 to 10 of ${total} entries`);
    await expect(eventRows(table)).toHaveCount(10);
    const firstPageIds = await columnTexts(table, COLUMN.id);

    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(serverPageIndicator(page)).toHaveText(`Page 2 of ${pages}`);
    await expect(showingEntries(page)).toHaveText(`Showing 11 to 20 of ${total} entries`);
    await expect.poll(() => columnTexts(table, COLUMN.id)).not.toEqual(firstPageIds);

    // The page size is remembered under eventsPageSize.
    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: '25', exact: true }).click();
    await expect(serverPageIndicator(page)).toHaveText(`Page 1 of ${Math.ceil(total / 25)}`);
    await expect(eventRows(table)).toHaveCount(25);
    await page.reload();
    await expect(showingEntries(page)).toHaveText(`Showing 1 to 25 of ${total} entries`);
  });

  test('filters by event name, unprocessed only and errored only', async ({ page }) => {
    const table = await goToEvents(page);
    const total = await totalEntries(page);

    await page.getByRole('searchbox', { name: 'Event name' }).fill('tenantcreated');
    await expect.poll(() => totalEntries(page)).toBeLessThan(total);
    await expect
      .poll(async () => new Set(await columnTexts(table, COLUMN.eventName)))
      .toEqual(new Set(['TenantCreated']));
    await page.getByRole('searchbox', { name: 'Event name' }).fill('');
    await expect.poll(() => totalEntries(page)).toBe(total);

    const unprocessed = page.getByRole('checkbox', { name: 'Unprocessed only' });
    const errored = page.getByRole('checkbox', { name: 'Errored only' });
    await unprocessed.check();
    await expect(errored).toBeDisabled();
    await expect.poll(() => totalEntries(page)).toBeLessThan(total);
    for (const status of await columnTexts(table, COLUMN.status)) {
      expect(['Unprocessed', 'Error']).toContain(status);
    }
    await unprocessed.uncheck();
    await expect(errored).toBeEnabled();

    await errored.check();
    await expect(unprocessed).toBeDisabled();
    await expect.poll(() => totalEntries(page)).toBeLessThan(total);
    const statuses = await columnTexts(table, COLUMN.status);
    expect(new Set(statuses)).toEqual(new Set(['Error']));
    // Errored rows are red and name the failed worker with a Reset.
    await expect(eventRows(table).first()).toHaveClass(/bg-red-50/);
    await expect(
      eventRows(table)
        .first()
        .getByRole('button', { name: /^Reset / }),
    ).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);
  });

  test('the Created At header toggles newest first and oldest first', async ({ page }) => {
    const table = await goToEvents(page);
    const header = table.getByRole('columnheader', { name: 'Created At' });
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    const newest = (await columnTexts(table, COLUMN.createdAt))[0]!;

    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(async () => (await columnTexts(table, COLUMN.createdAt))[0]).not.toBe(newest);
    const oldest = (await columnTexts(table, COLUMN.createdAt))[0]!;
    expect(oldest < newest).toBe(true);
    const ascending = await columnTexts(table, COLUMN.createdAt);
    expect([...ascending].sort()).toEqual(ascending);

    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(async () => (await columnTexts(table, COLUMN.createdAt))[0]).toBe(newest);
  });

  test('Create Test Event records a TestEvent that becomes Processed after Refresh', async ({
    page,
  }) => {
    const table = await goToEvents(page);
    await page.getByRole('button', { name: 'Create Test Event' }).click();
    const created = toast(page, /^Test event \d+ created$/);
    await expect(created).toBeVisible();
    const id = Number(/\d+/.exec(await created.innerText())?.[0]);
    const row = eventRow(table, id);
    await expect(row.getByRole('cell').nth(COLUMN.eventName)).toHaveText('TestEvent');
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(row.getByRole('cell').nth(COLUMN.status)).toHaveText('Processed', {
        timeout: 1_000,
      });
    }).toPass({ timeout: 20_000 });
    await expect(row.getByRole('cell').nth(COLUMN.actions)).toHaveText('No actions');
    await expectNoSeriousAccessibilityViolations(page);
  });

  test('a tenant user invited while the mail server is down: red row, Reset, then the invitation', async ({
    page,
  }) => {
    const api = await eventsApiAs(page);
    const email = `invitee-${Date.now()}@acme.example`;
    await api.stopMailCatcher();
    let tenantUserId: number | undefined;
    try {
      tenantUserId = (await api.createTenantUser(email, await api.tenantId('Acme Corporation'))).id;
      const table = await goToEvents(page);
      await page.getByRole('searchbox', { name: 'Event name' }).fill('TenantUserCreated');
      // The invitation's event names the address in its metadata.
      const row = eventRows(table).filter({ hasText: email });
      await expect(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await expect(row.getByRole('cell').nth(COLUMN.status)).toHaveText('Error', {
          timeout: 1_000,
        });
      }).toPass({ timeout: 30_000 });
      await expect(row).toHaveClass(/bg-red-50/);
      const actions = row.getByRole('cell').nth(COLUMN.actions);
      await expect(actions).toContainText('notifications: ');
      await expect(actions).not.toContainText('audit-trail');
      expect(await api.mailTo(email)).toEqual([]);

      await api.startMailCatcher();
      await actions.getByRole('button', { name: /^Reset notifications of event \d+$/ }).click();
      await expect(toast(page, /^Event \d+ reset for notifications$/)).toBeVisible();
      await expect(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await expect(row.getByRole('cell').nth(COLUMN.status)).toHaveText('Processed', {
          timeout: 1_000,
        });
      }).toPass({ timeout: 30_000 });
      await expect(row).not.toHaveClass(/bg-red-50/);
      await expect(actions).toHaveText('No actions');
      await expect
        .poll(async () => (await api.mailTo(email)).map((mail) => mail.subject))
        .toEqual(['You are invited to the Acme Corporation portal']);
    } finally {
      await api.startMailCatcher();
      if (tenantUserId !== undefined) await api.deleteTenantUser(tenantUserId);
    }
  });
});

test.describe('as a tenant-portal user', () => {
  test("sees the tenant's events without Reset or Create Test Event", async ({ page }) => {
    await signInAs(page, portalUser.email);
    const table = await goToEvents(page);
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create Test Event' })).toHaveCount(0);
    await expect(table.getByRole('button', { name: /^Reset / })).toHaveCount(0);
    const tenantIds = new Set(await columnTexts(table, COLUMN.tenantId));
    expect(tenantIds.size).toBe(1);
    await expectNoSeriousAccessibilityViolations(page);
  });
});
