import { expect, test } from '@playwright/test';
import {
  describeSignedInAs,
  expectNoSeriousAccessibilityViolations,
  staffMember,
  toast,
} from './helpers.ts';
import {
  addTenant,
  addTenantUser,
  choosePageSize,
  chooseOption,
  cleanUp,
  confirmDeletion,
  goToTenants,
  goToTenantUsers,
  removeTenantUser,
  rowWith,
  unique,
} from './tenant-helpers.ts';

// Spec part 1: section 2 ("Tenants screen", "Tenant users screen", "Common behaviour of list
// screens"), section 5 (required fields, namespaces) and section 7 (the calls).

describeSignedInAs('as staff', staffMember, () => {
  test('adds a tenant (required fields first), edits its namespaces and deletes it', async ({
    page,
    browser,
  }) => {
    const companyName = unique('E2E Tenant');
    const namespace = unique('e2ens').toLowerCase();
    try {
      await goToTenants(page);
      await page.getByRole('button', { name: 'Add Tenant' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Tenant' });
      await expect(
        dialog.getByText(
          'Optional. Without a namespace, one is generated from the company name when you save.',
        ),
      ).toBeVisible();
      await dialog.getByRole('textbox', { name: 'Company Name' }).fill(companyName);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByRole('alert')).toHaveText('Please fill in all required fields.');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();

      await addTenant(page, { companyName, country: 'Germany', namespaces: [namespace] });
      const table = page.getByRole('table', { name: 'Tenants' });
      await expect(rowWith(table, companyName).getByRole('cell').nth(2)).toHaveText('Germany');

      await page.getByRole('button', { name: `Edit ${companyName}`, exact: true }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Tenant' });
      await expect(edit.getByRole('textbox', { name: 'Company Name' })).toHaveValue(companyName);
      await expect(edit.getByRole('list', { name: 'Namespaces' })).toHaveText(namespace);
      await edit.getByRole('textbox', { name: 'Namespaces' }).fill(`${namespace}-2`);
      await edit.getByRole('button', { name: 'Add namespace' }).click();
      await edit.getByRole('textbox', { name: 'Namespaces' }).fill(` ${namespace} `);
      await edit.getByRole('button', { name: 'Add namespace' }).click();
      await expect(
        edit.getByText(`The namespace ${namespace} is already in the list.`),
      ).toBeVisible();
      await edit.getByRole('textbox', { name: 'Namespaces' }).fill('');
      await chooseOption(edit, 'Domicile Country', 'France');
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect(edit).toBeHidden();
      await expect(toast(page, `Tenant ${companyName} updated`)).toBeVisible();
      await expect(rowWith(table, companyName).getByRole('cell').nth(2)).toHaveText('France');

      await page.getByRole('button', { name: `Edit ${companyName}`, exact: true }).click();
      await expect(
        page.getByRole('dialog', { name: 'Edit Tenant' }).getByRole('listitem'),
      ).toHaveText([namespace, `${namespace}-2`]);
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: `Delete ${companyName}`, exact: true }).click();
      await confirmDeletion(page, 'Delete tenant?');
      await expect(toast(page, `Tenant ${companyName} deleted`)).toBeVisible();
      await expect(rowWith(table, companyName)).toHaveCount(0);
    } finally {
      await cleanUp(browser, { tenants: [companyName] });
    }
  });

  test('a namespace of another tenant is refused with the server message', async ({ page }) => {
    await goToTenants(page);
    await page.getByRole('button', { name: 'Add Tenant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Tenant' });
    await dialog.getByRole('textbox', { name: 'Company Name' }).fill(unique('E2E Clash'));
    await chooseOption(dialog, 'Domicile Country', 'Germany');
    await dialog.getByRole('textbox', { name: 'Namespaces' }).fill('acme');
    await dialog.getByRole('button', { name: 'Add namespace' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toContainText(
      'The namespace acme is already used by tenant Acme Corporation.',
    );
    await expect(dialog).toBeVisible();
  });

  test('registers a tenant user, refuses the same email twice, and a tenant with users stays', async ({
    page,
    browser,
  }) => {
    const companyName = unique('E2E Users Tenant');
    const email = `${unique('newuser')}@portal.example`;
    try {
      await addTenant(page, { companyName, country: 'Germany' });
      await addTenantUser(page, email, companyName);
      const table = page.getByRole('table', { name: 'Tenant Users' });
      await expect(rowWith(table, email).getByRole('cell').nth(2)).toHaveText(companyName);

      // Required fields, then the 409 of an email already registered.
      await page.getByRole('button', { name: 'Add Tenant User' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Tenant User' });
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByRole('alert')).toHaveText('Please fill in all required fields.');
      await dialog.getByRole('textbox', { name: 'Email' }).fill(email.toUpperCase());
      await chooseOption(dialog, 'Tenant', 'Globex Limited');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByRole('alert')).toHaveText(
        `The email ${email} is already registered as a tenant user.`,
      );
      await page.keyboard.press('Escape');

      // The tenant still has a user: deleting it says why not.
      const tenants = await goToTenants(page);
      await choosePageSize(page, 100);
      await page.getByRole('button', { name: `Delete ${companyName}`, exact: true }).click();
      await confirmDeletion(page, 'Delete tenant?');
      await expect(
        toast(
          page,
          `Cannot delete tenant ${companyName} because it still has 1 tenant user. Remove them first.`,
        ),
      ).toBeVisible();
      await expect(rowWith(tenants, companyName)).toHaveCount(1);

      await removeTenantUser(page, email);
    } finally {
      await cleanUp(browser, { emails: [email], tenants: [companyName] });
    }
  });

  test('the tenants and tenant users screens have no serious accessibility violation', async ({
    page,
  }) => {
    await goToTenants(page);
    await expectNoSeriousAccessibilityViolations(page);
    await page.getByRole('button', { name: 'Add Tenant' }).click();
    await page
      .getByRole('dialog', { name: 'Add Tenant' })
      .getByRole('button', { name: 'Save' })
      .click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);
    await page.keyboard.press('Escape');

    await goToTenantUsers(page);
    await expectNoSeriousAccessibilityViolations(page);
    await page.getByRole('button', { name: 'Add Tenant User' }).click();
    await expect(page.getByRole('dialog', { name: 'Add Tenant User' })).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);
  });
});
