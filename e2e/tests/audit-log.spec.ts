import { expect, test, type Locator, type Page } from '@playwright/test';
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
// new API references are found by actor and target, and their difference shows the old and the
// new values side by side; the Events screen opens an event's panel. Keyboard and axe on the
// screen and on both panels.

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
      apiReferences: { onfido: 'old-ref', jumio: 'kept-ref' },
    };
    await api.ok(api.post('/api/documenttypes', documentType));
    await api.ok(
      api.put(`/api/documenttypes/${documentTypeId}`, {
        ...documentType,
        apiReferences: { onfido: 'new-ref', jumio: 'kept-ref' },
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
      ]);
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
