import { expect, test, type Locator, type Page } from '@playwright/test';
import { totalEntries } from './events-helpers.ts';
import { csvRecords, exportAs, FILE_NAME, xlsxRecords } from './export-helpers.ts';
import {
  admin,
  describeSignedInAs,
  expectNoSeriousAccessibilityViolations,
  navigationLink,
  signedInApi,
  signInAs,
  staffMember,
} from './helpers.ts';

// Issue 31: the audit log a compliance officer uses. A tenant's new name and a document type's
// new API references are found by actor and target, the filtered list is exported (CSV and
// xlsx, read back), and their difference shows the old and the new values side by side, a long
// value wrapped; the Events screen opens an event's panel. Keyboard and axe on the screen and on
// both panels.

const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1e4)}`;

/** Sets the audit log's filters (Apply), each given by its label. */
async function filterAuditLog(
  page: Page,
  filters: { actor?: string; targetType?: string; targetId?: string },
): Promise<void> {
  const form = page.getByRole('form', { name: 'Filters' });
  if (filters.actor !== undefined) await form.getByLabel('Actor').fill(filters.actor);
  if (filters.targetType !== undefined) {
    await form.getByRole('combobox', { name: 'Target type' }).click();
    await page.getByRole('option', { name: filters.targetType, exact: true }).click();
  }
  if (filters.targetId !== undefined) await form.getByLabel('Target ID').fill(filters.targetId);
  await form.getByRole('button', { name: 'Apply' }).click();
}

/**
 * The audit row of an update, once the audit-trail worker has written it: the list is read again
 * (Refresh is the browser's) until it shows.
 */
async function updateRow(page: Page): Promise<Locator> {
  const table = page.getByRole('table', { name: 'Audit Log' });
  const row = table.getByRole('row').filter({ has: page.getByRole('cell', { name: 'update' }) });
  await expect(async () => {
    await page.reload();
    await expect(row.first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  return row.first();
}

/** Opens the row's difference with the keyboard; answers the panel. */
async function openChanges(page: Page, row: Locator): Promise<Locator> {
  const button = row.getByRole('button', { name: /^Show changes of entry \d+$/ });
  await button.focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('dialog');
  await expect(panel).toBeVisible();
  return panel;
}

/** The audit export's columns (features/audit/queries.ts). */
const EXPORT_HEADER = [
  'ID',
  'Time',
  'Actor',
  'Action',
  'Target Type',
  'Target ID',
  'Target Name',
  'Tenant ID',
  'Tenant',
  'Event',
  'Before',
  'After',
];

/**
 * Exports the filtered audit log as CSV and as xlsx and reads both back: each holds the list's
 * rows (as many as it counts), all of `expected` (actor, target type, target id). Answers each
 * file's records without the header.
 */
async function exportFiltered(page: Page, expected: string[]): Promise<unknown[][][]> {
  const total = await totalEntries(page);
  const csv = await exportAs(page, 'CSV');
  expect(csv.suggestedFilename()).toMatch(FILE_NAME('audit-log', 'csv'));
  const xlsx = await exportAs(page, 'Excel (.xlsx)');
  expect(xlsx.suggestedFilename()).toMatch(FILE_NAME('audit-log', 'xlsx'));
  const files = [await csvRecords(csv), await xlsxRecords(xlsx)];
  for (const [header, ...records] of files) {
    expect(header).toEqual(EXPORT_HEADER);
    expect(records).toHaveLength(total);
    const what = records.map((record) =>
      ['Actor', 'Target Type', 'Target ID'].map((name) => String(record[column(name)])),
    );
    expect(new Set(what.map((parts) => parts.join(' ')))).toEqual(new Set([expected.join(' ')]));
  }
  return files.map((records) => records.slice(1));
}

/** The index of an export column. */
const column = (name: string) => EXPORT_HEADER.indexOf(name);

/** A value longer than a line of the panel, without a space to break at. */
const LONG_REFERENCE = `https://verify.example/${'x'.repeat(600)}`;

/** The value is wrapped onto several lines inside the panel, never past its right edge. */
async function expectWrapped(panel: Locator, text: string): Promise<void> {
  const value = panel.getByText(text, { exact: true });
  // The panel slides in from the right: measured mid-slide, the value and the panel are taken
  // at different offsets. Measure once its animations have finished.
  await panel.evaluate((element) =>
    Promise.all(
      element
        .getAnimations({ subtree: true })
        .map((animation: { finished: Promise<unknown> }) => animation.finished),
    ).then(() => undefined),
  );
  const [box, panelBox] = await Promise.all([value.boundingBox(), panel.boundingBox()]);
  if (!box || !panelBox) throw new Error('The panel or its value is not shown');
  expect(box.x + box.width).toBeLessThanOrEqual(panelBox.x + panelBox.width);
  expect(box.height).toBeGreaterThan(3 * 16);
  expect(await panel.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
}

/** The changed values of a panel as [field, before, after] rows. */
async function changedValues(panel: Locator): Promise<string[][]> {
  const rows = panel.getByRole('table').getByRole('row');
  const texts: string[][] = [];
  for (const row of (await rows.all()).slice(1)) {
    texts.push(
      await row.locator('th, td').evaluateAll((cells) => cells.map((c) => c.textContent ?? '')),
    );
  }
  return texts;
}

describeSignedInAs('as a staff member', staffMember, () => {
  test('finds a renamed tenant and a changed document type by actor and target, and shows the difference', async ({
    page,
    browser,
  }) => {
    const api = await signedInApi(page);
    const oldName = `Audit Tenant ${stamp()}`;
    const newName = `${oldName} renamed`;
    const tenant = await api.json<{ id: number }>(
      api.post('/api/tenants', { companyName: oldName, domicileCountryId: 250 }),
    );
    await api.ok(
      api.put(`/api/tenants/${tenant.id}`, { companyName: newName, domicileCountryId: 250 }),
    );
    const documentTypeId = `audit_${stamp()}`;
    const documentType = {
      id: documentTypeId,
      displayName: 'Audit card',
      tags: ['identity'],
      apiReferences: { onfido: 'old-ref', jumio: 'kept-ref', veriff: 'short-ref' },
    };
    await api.ok(api.post('/api/documenttypes', documentType));
    await api.ok(
      api.put(`/api/documenttypes/${documentTypeId}`, {
        ...documentType,
        apiReferences: { onfido: 'new-ref', jumio: 'kept-ref', veriff: LONG_REFERENCE },
      }),
    );

    try {
      await navigationLink(page, 'Audit Log').click();
      await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
      await expectNoSeriousAccessibilityViolations(page);

      // The tenant: by actor and target; the filters are in the URL.
      await filterAuditLog(page, {
        actor: staffMember.email,
        targetType: 'Tenant',
        targetId: String(tenant.id),
      });
      await expect(page).toHaveURL(
        new RegExp(`actor=staff%40example.com&targetType=Tenant&targetId=${tenant.id}`),
      );
      const tenantRow = await updateRow(page);
      await expect(tenantRow).toContainText(`Tenant · ${tenant.id} · ${newName}`);

      // The filtered list, whole, as CSV and xlsx: the update's before and after as JSON text.
      const files = await exportFiltered(page, [staffMember.email, 'Tenant', String(tenant.id)]);
      for (const records of files) {
        const update = records.find((record) => record[column('Action')] === 'update') ?? [];
        expect(JSON.parse(String(update[column('Before')]))).toMatchObject({
          companyName: oldName,
        });
        expect(JSON.parse(String(update[column('After')]))).toMatchObject({
          companyName: newName,
        });
      }
      const tenantPanel = await openChanges(page, tenantRow);
      expect(await changedValues(tenantPanel)).toContainEqual(['companyName', oldName, newName]);
      await expectNoSeriousAccessibilityViolations(page);
      // Every field with the switch, the unchanged ones too.
      const changedCount = (await changedValues(tenantPanel)).length;
      await tenantPanel.getByRole('checkbox', { name: 'Show unchanged fields' }).press('Space');
      await expect
        .poll(async () => (await changedValues(tenantPanel)).length)
        .toBeGreaterThan(changedCount);
      await page.keyboard.press('Escape');
      await expect(tenantPanel).toBeHidden();
      await expect(
        tenantRow.getByRole('button', { name: /^Show changes of entry \d+$/ }),
      ).toBeFocused();

      // The document type: its API references compared key by key.
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await filterAuditLog(page, {
        actor: staffMember.email,
        targetType: 'DocumentType',
        targetId: documentTypeId,
      });
      const documentTypeRow = await updateRow(page);
      const documentTypePanel = await openChanges(page, documentTypeRow);
      expect(await changedValues(documentTypePanel)).toEqual([
        ['apiReferences.onfido', 'old-ref', 'new-ref'],
        ['apiReferences.veriff', 'short-ref', LONG_REFERENCE],
      ]);
      await expectWrapped(documentTypePanel, LONG_REFERENCE);
      await expectNoSeriousAccessibilityViolations(page);
      await page.keyboard.press('Escape');
      await expect(documentTypePanel).toBeHidden();
    } finally {
      await api.delete(`/api/tenants/${tenant.id}`);
      // Deleting a document type is an administrator's (staff get 403): left behind, it would
      // come first in the document types screen's sort checks.
      const adminContext = await browser.newContext();
      try {
        const adminPage = await adminContext.newPage();
        await signInAs(adminPage, admin.email);
        const adminApi = await signedInApi(adminPage);
        await adminApi.ok(adminApi.delete(`/api/documenttypes/${documentTypeId}`));
      } finally {
        await adminContext.close();
      }
    }
  });

  test("opens an event's payload and its processing by worker from the Events screen", async ({
    page,
  }) => {
    await navigationLink(page, 'Events').click();
    const table = page.getByRole('table', { name: 'Events' });
    const details = table.getByRole('button', { name: /^Details of event \d+$/ }).first();
    await details.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog');
    await expect(panel.getByRole('region', { name: 'Payload' })).toContainText('"actor"');
    await expect(panel.getByRole('region', { name: 'Processing by worker' })).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(details).toBeFocused();
  });
});
