import { expect, test } from '@playwright/test';
import { COLUMN, columnTexts, goToEvents, totalEntries } from './events-helpers.ts';
import { csvRecords, exportAs, FILE_NAME, xlsxRecords } from './export-helpers.ts';
import {
  describeSignedInAs,
  expectNoSeriousAccessibilityViolations,
  portalUser,
  staffMember,
} from './helpers.ts';

// Issue 31, part 5: every list screen's Export control downloads the whole list under the
// screen's filters, as CSV (RFC 4180, UTF-8 with BOM) or xlsx.

describeSignedInAs('as a staff member', staffMember, () => {
  test('exports the whole event log, then the filtered one, not the page shown', async ({
    page,
  }) => {
    await goToEvents(page);
    const total = await totalEntries(page);
    expect(total).toBeGreaterThan(10);

    const all = await exportAs(page, 'CSV');
    expect(all.suggestedFilename()).toMatch(FILE_NAME('events', 'csv'));
    await expect(page.getByRole('status').filter({ hasText: /^Exported events-/ })).toBeVisible();
    const records = await csvRecords(all);
    expect(records[0]?.slice(0, 3)).toEqual(['ID', 'Created At', 'Event Name']);
    expect(records).toHaveLength(total + 1);

    // The name filter: the file holds exactly what the filtered list counts, and nothing else.
    await page.getByRole('searchbox', { name: 'Event name' }).fill('tenantcreated');
    await expect.poll(() => totalEntries(page)).toBeLessThan(total);
    const table = page.getByRole('table', { name: 'Events' });
    await expect
      .poll(async () => new Set(await columnTexts(table, COLUMN.eventName)))
      .toEqual(new Set(['TenantCreated']));
    const filtered = await totalEntries(page);

    const filteredCsv = await csvRecords(await exportAs(page, 'CSV'));
    expect(filteredCsv).toHaveLength(filtered + 1);
    expect(new Set(filteredCsv.slice(1).map((record) => record[2]))).toEqual(
      new Set(['TenantCreated']),
    );

    const workbook = await exportAs(page, 'Excel (.xlsx)');
    expect(workbook.suggestedFilename()).toMatch(FILE_NAME('events', 'xlsx'));
    const rows = await xlsxRecords(workbook);
    expect(rows).toHaveLength(filtered + 1);
    expect(new Set(rows.slice(1).map((row) => row[2]))).toEqual(new Set(['TenantCreated']));
  });

  test('the Export control works by keyboard and passes axe, menu open too', async ({ page }) => {
    await page.goto('/dashboard/tenants');
    await expect(page.getByRole('heading', { level: 1, name: 'Tenants' })).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);

    const button = page.getByRole('button', { name: 'Export' });
    await button.focus();
    await page.keyboard.press('Enter');
    const csv = page.getByRole('menuitem', { name: 'CSV' });
    await expect(csv).toBeFocused();
    await expectNoSeriousAccessibilityViolations(page);

    const download = page.waitForEvent('download');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Excel (.xlsx)' })).toBeFocused();
    await page.keyboard.press('Enter');
    const file = await download;
    expect(file.suggestedFilename()).toMatch(FILE_NAME('tenants', 'xlsx'));
    const rows = await xlsxRecords(file);
    expect(rows[0]?.slice(0, 2)).toEqual(['ID', 'Company Name']);
    expect(rows.map((row) => row[1])).toContain('Acme Corporation');
    await expect(page.getByRole('status').filter({ hasText: 'Exported tenants-' })).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);
  });
});

describeSignedInAs('as a tenant-portal user', portalUser, () => {
  test("exports its own tenant's entities only", async ({ page }) => {
    await page.goto('/dashboard/entities');
    await expect(page.getByRole('heading', { level: 1, name: 'Entities' })).toBeVisible();
    const records = await csvRecords(await exportAs(page, 'CSV'));
    const tenant = records[0]?.indexOf('Tenant') ?? -1;
    expect(records.length).toBeGreaterThan(1);
    expect(new Set(records.slice(1).map((row) => row[tenant]))).toEqual(
      new Set(['Acme Corporation']),
    );
  });
});
