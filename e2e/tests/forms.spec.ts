import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  admin,
  describeSignedInAs,
  expectNoSeriousAccessibilityViolations,
  portalUser,
  toast,
} from './helpers.ts';
import {
  chooseFrom,
  formsApiAs,
  goToFormFields,
  goToForms,
  renderedControl,
  renderedField,
  uniqueName,
} from './forms-helpers.ts';
import { bodyRows, goToDocumentTypes, rowWith } from './reference-data-helpers.ts';
import { choosePageSize, goToEntities, goToTenants } from './tenant-helpers.ts';

// Spec part 2: the Forms list, the Form fields list, the field, form-definition and form-test
// dialogs, section 7 (the forms service) and section 8 (messages); part 1: the tenant and entity
// profile dialogs (dynamic forms EditTenantProfile and EditEntityProfile).

/** A label that would run script if the page put it into the DOM as HTML. */
const XSS_LABEL = '<img src=x onerror="window.__xss=1">E2E payload';
const XSS_NOTE = '<script>window.__xss=2</script>"><img src=y onerror="window.__xss=3">';

/** Fills the Create Form Field dialog's Basic Information and saves it. */
async function createFieldThroughDialog(
  page: Page,
  field: { name: string; displayName: string; type: string; uiGroup: string },
  more: (dialog: Locator) => Promise<void>,
): Promise<void> {
  // The toast of a field created just before may still show: wait until it has gone, so that the
  // toast below is this save's (two at once failed the strict locator in CI).
  const created = toast(page, 'Form field created successfully');
  await expect(created).toHaveCount(0);
  await page.getByRole('button', { name: 'Create New Field' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Form Field' });
  await dialog.getByRole('textbox', { name: /^Storage Name/ }).fill(field.name);
  await dialog.getByRole('textbox', { name: /^Display Name/ }).fill(field.displayName);
  await chooseFrom(dialog, /^Type/, field.type);
  await dialog.getByRole('combobox', { name: 'UI Group', exact: true }).fill(field.uiGroup);
  await more(dialog);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(created).toBeVisible();
  await expect(dialog).toBeHidden();
}

/** Adds each field (by its option text) in the form-definition dialog. */
async function addFields(dialog: Locator, options: string[]): Promise<void> {
  for (const option of options) {
    await chooseFrom(dialog, 'Field to add', option);
    await dialog.getByRole('button', { name: 'Add field' }).click();
  }
}

/** Opens the form-test dialog of `formName` from the Forms screen, its fields loaded. */
async function openFormTest(page: Page, table: Locator, formName: string): Promise<Locator> {
  await rowWith(table, formName)
    .getByRole('button', { name: `Test ${formName}` })
    .click();
  const dialog = page.getByRole('dialog', { name: `Test form ${formName}` });
  await expect(dialog.locator('.df-field').first()).toBeVisible();
  return dialog;
}

/** A rendered field marked as refused: destructive style, aria-invalid and its message. */
async function expectRefused(scope: Locator, displayName: string, message: string) {
  const field = renderedField(scope, displayName);
  await expect(field).toHaveClass(/df-invalid/);
  await expect(renderedControl(scope, displayName)).toHaveAttribute('aria-invalid', 'true');
  await expect(field.locator('.df-error')).toHaveText(message);
}

describeSignedInAs('forms, as an administrator', admin, () => {
  test('fields of several types, a form built from them, a test submission refused then accepted', async ({
    page,
  }) => {
    const api = await formsApiAs(page);
    const group = uniqueName('E2E group ');
    const fullName = { name: uniqueName('E2eFullName'), displayName: uniqueName('E2E full name ') };
    const risk = { name: uniqueName('E2eRisk'), displayName: uniqueName('E2E risk ') };
    const formName = uniqueName('E2eForm');
    const made: number[] = [];
    try {
      // Two fields through the field dialog: a required Text of at most 20 characters, a Select.
      await goToFormFields(page);
      await createFieldThroughDialog(
        page,
        { ...fullName, type: 'Text', uiGroup: group },
        async (d) => {
          await d.getByRole('checkbox', { name: 'Required' }).check();
          await d.getByRole('spinbutton', { name: 'Max Length' }).fill('20');
        },
      );
      await createFieldThroughDialog(
        page,
        { ...risk, type: 'Select', uiGroup: group },
        async (d) => {
          await d.getByRole('checkbox', { name: 'Required' }).check();
          await d.getByRole('textbox', { name: 'Options' }).fill('Low\nHigh');
        },
      );
      const byName = new Map((await api.fields()).map((field) => [field.name, field]));
      made.push(byName.get(fullName.name)!.id, byName.get(risk.name)!.id);
      expect(byName.get(fullName.name)).toMatchObject({
        type: 'Text',
        required: true,
        maxLength: 20,
      });
      expect(byName.get(risk.name)).toMatchObject({ type: 'Select', options: ['Low', 'High'] });

      // Two more through the API: an Email, and a Text whose label and note are hostile HTML.
      const email = await api.createField({
        name: uniqueName('E2eEmail'),
        displayName: uniqueName('E2E email '),
        type: 'Email',
        uiGroup: group,
      });
      const hostile = await api.createField({
        name: uniqueName('E2eHostile'),
        displayName: XSS_LABEL,
        note: XSS_NOTE,
        type: 'Text',
        uiGroup: group,
      });
      made.push(email.id, hostile.id);

      // The form, through the form-definition dialog.
      const table = await goToForms(page);
      await page.getByRole('button', { name: 'Create New Form' }).click();
      const create = page.getByRole('dialog', { name: 'Create New Form' });
      await create.getByRole('textbox', { name: /^Name/ }).fill(formName);
      await create.getByRole('textbox', { name: 'Description' }).fill('Built by the e2e suite');
      const option = (field: { name: string; displayName: string }) =>
        `${field.displayName} (${field.name}) · ${group}`;
      await addFields(create, [option(fullName), option(risk), option(email), option(hostile)]);
      // A selected field cannot be added twice: its option is disabled.
      await create.getByRole('combobox', { name: 'Field to add' }).click();
      await expect(
        page.getByRole('option', { name: `${option(risk)} (selected)`, exact: true }),
      ).toHaveAttribute('aria-disabled', 'true');
      await page.keyboard.press('Escape');
      await expect(
        create.getByRole('list', { name: 'UI group order' }).getByRole('listitem'),
      ).toHaveText([new RegExp(group)]);
      await create.getByRole('button', { name: 'Save' }).click();
      await expect(create).toBeHidden();
      await expect(page.getByRole('status').getByText('Form created successfully')).toBeVisible();
      await choosePageSize(page, 100);

      // Test it: the hostile label is text, and nothing of it ran.
      const dialog = await openFormTest(page, table, formName);
      await expect(renderedField(dialog, XSS_LABEL).locator('label')).toHaveText(XSS_LABEL);
      await expect(renderedField(dialog, XSS_LABEL).locator('.df-note')).toHaveText(XSS_NOTE);
      await expect(dialog.locator('img, script')).toHaveCount(0);
      expect(await page.evaluate('typeof window.__xss')).toBe('undefined');

      // Submitted empty with a bad email: the server's messages, field by field.
      await renderedControl(dialog, email.displayName).fill('not-an-email');
      await dialog.getByRole('button', { name: 'Submit' }).click();
      const refusal = dialog.locator('[role="alert"]').filter({
        hasText: 'One or more validation errors occurred.',
      });
      await expect(refusal).toBeVisible();
      await expect(refusal).toContainText(`${fullName.displayName} is required.`);
      await expectRefused(dialog, fullName.displayName, `${fullName.displayName} is required.`);
      await expectRefused(dialog, risk.displayName, `${risk.displayName} is required.`);
      await expectRefused(
        dialog,
        email.displayName,
        `${email.displayName} must be a valid email address.`,
      );
      await expect(renderedField(dialog, XSS_LABEL)).not.toHaveClass(/df-invalid/);

      // Corrected: accepted, and the marks are gone.
      await renderedControl(dialog, fullName.displayName).fill('Ada Lovelace');
      await renderedControl(dialog, risk.displayName).selectOption('High');
      await renderedControl(dialog, email.displayName).fill('ada@example.com');
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await expect(dialog.getByRole('status')).toHaveText('Form submitted successfully.');
      await expect(dialog.locator('.df-invalid')).toHaveCount(0);
      expect(await page.evaluate('typeof window.__xss')).toBe('undefined');
    } finally {
      await api.deleteForm(formName);
      for (const id of made) await api.deleteField(id);
    }
  });

  test("a tenant's profile is saved, shown again after a reload, and recorded", async ({
    page,
  }) => {
    const api = await formsApiAs(page);
    const tenant = await api.createTenant(uniqueName('E2E Profile Ltd '), 826);
    try {
      const openProfile = async () => {
        const table = await goToTenants(page);
        await choosePageSize(page, 100);
        await rowWith(table, tenant.companyName)
          .getByRole('button', { name: `Profile of ${tenant.companyName}` })
          .click();
        const dialog = page.getByRole('dialog', { name: `Tenant profile: ${tenant.companyName}` });
        await expect(renderedField(dialog, 'Registered company name')).toBeVisible();
        return dialog;
      };
      const dialog = await openProfile();
      const control = (label: string) => renderedControl(dialog, label);
      await control('Registered company name').fill('E2E Profile Limited');
      await control('Company registration number').fill('SC123456');
      await control('Legal form').selectOption('Other');
      await control('Date of incorporation').fill('2015-03-01');
      // Country choices arrive with the setup event.
      await control('Country of incorporation').selectOption({ label: 'United Kingdom' });
      await control('Industry sector').selectOption('Manufacturing');
      await control('Address line 1').fill('1 Market Street');
      await control('Town or city').fill('Edinburgh');
      await control('Postcode').fill('EH1 1AA');
      await control('Country').selectOption({ label: 'United Kingdom' });
      await control('Contact name').fill('Morag Smith');
      await control('Email address').fill('morag@example.com');
      await control('Regulated by a financial authority').selectOption('No');
      await control('Source of funds').fill('Trading revenue');
      await control('I confirm the information given is accurate and complete').check();

      // 'Other' legal form without saying which: refused by the conditional requirement.
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByText('Please correct the validation errors.')).toBeVisible();
      await expectRefused(
        dialog,
        'Other legal form',
        'Describe the legal form when it is not in the list.',
      );
      await control('Other legal form').fill('Scottish limited partnership');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(toast(page, 'Profile saved successfully.')).toBeVisible();
      await expect(dialog).toBeHidden();

      await page.reload();
      const again = await openProfile();
      await expect(renderedControl(again, 'Registered company name')).toHaveValue(
        'E2E Profile Limited',
      );
      await expect(renderedControl(again, 'Other legal form')).toHaveValue(
        'Scottish limited partnership',
      );
      await expect(renderedControl(again, 'Country')).toHaveValue('826');
      await expect(
        renderedControl(again, 'I confirm the information given is accurate and complete'),
      ).toBeChecked();

      const events = await api.events('TenantProfileUpdated');
      const recorded = events.find((event) => event.tenantId === tenant.id);
      expect(recorded?.metadata).toMatchObject({
        actor: admin.email,
        formName: 'EditTenantProfile',
      });
      expect(recorded?.metadata.changed).toEqual(
        expect.arrayContaining(['CompanyName', 'LegalFormOther', 'RegisteredCountry']),
      );
    } finally {
      await api.deleteTenant(tenant.id);
    }
  });

  test("a document type's yellow cell goes once its EditIndividualId form exists, and comes back", async ({
    page,
  }) => {
    const api = await formsApiAs(page);
    const formName = 'EditIndividualId_nationalidentitycard';
    const idCell = async () => {
      const table = await goToDocumentTypes(page);
      return rowWith(table, 'National identity card')
        .getByRole('cell')
        .first()
        .getByText(/^national_identity_card/);
    };
    await expect(await idCell()).toHaveClass(/bg-yellow-100/);
    const fields = (await api.fields()).filter((field) =>
      ['DocumentNumber', 'IssuingCountry', 'DateOfExpiry'].includes(field.name),
    );
    try {
      await api.createForm({ name: formName, fields: fields.map((field) => field.id) });
      await expect(await idCell()).not.toHaveClass(/bg-yellow-100/);
    } finally {
      await api.deleteForm(formName);
    }
    await expect(await idCell()).toHaveClass(/bg-yellow-100/);
  });

  test('the screens and their dialogs pass axe and work by keyboard', async ({ page }) => {
    const table = await goToForms(page);
    await expectNoSeriousAccessibilityViolations(page);

    // Keyboard: the test dialog opens from its button, takes the focus, and Escape gives it back.
    const testButton = rowWith(table, 'EditTenantProfile').getByRole('button', {
      name: 'Test EditTenantProfile',
    });
    await testButton.focus();
    await page.keyboard.press('Enter');
    const testDialog = page.getByRole('dialog', { name: 'Test form EditTenantProfile' });
    await expect(testDialog.locator('.df-field').first()).toBeVisible();
    await expect(testDialog).toContainText('Registered company name');
    await expectNoSeriousAccessibilityViolations(page);
    await page.keyboard.press('Escape');
    await expect(testDialog).toBeHidden();
    await expect(testButton).toBeFocused();

    await rowWith(table, 'EditEntityProfile')
      .getByRole('button', { name: 'Edit EditEntityProfile' })
      .click();
    const edit = page.getByRole('dialog', { name: 'Edit Form' });
    await expect(edit.getByRole('list', { name: 'UI group order' })).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);
    await page.keyboard.press('Escape');
    await expect(edit).toBeHidden();

    await goToFormFields(page);
    await expectNoSeriousAccessibilityViolations(page);
    await page.getByRole('button', { name: 'Create New Field' }).click();
    const create = page.getByRole('dialog', { name: 'Create Form Field' });
    await expect(create.getByRole('textbox', { name: /^Storage Name/ })).toBeFocused();
    await create.getByRole('textbox', { name: /^Storage Name/ }).fill('9bad');
    await expectNoSeriousAccessibilityViolations(page);
    await page.keyboard.press('Escape');
    await expect(create).toBeHidden();

    const tenants = await goToTenants(page);
    await bodyRows(tenants)
      .first()
      .getByRole('button', { name: /^Profile of / })
      .click();
    const profile = page.getByRole('dialog', { name: /^Tenant profile: / });
    await expect(renderedField(profile, 'Registered company name')).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);
  });
});

describeSignedInAs('forms, as a tenant-portal user', portalUser, () => {
  test("an entity's profile is refused field by field, and nothing is saved", async ({ page }) => {
    const table = await goToEntities(page);
    const row = bodyRows(table).first();
    const name = (await row.getByRole('cell').nth(2).innerText()).trim();
    await row.getByRole('button', { name: `Profile of ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Entity profile: ${name}` });
    await expect(renderedField(dialog, 'Registered company name')).toBeVisible();
    // Staff-only fields are not shown to a tenant user.
    await expect(renderedField(dialog, 'Screening notes')).toHaveCount(0);

    await renderedControl(dialog, 'Registered company name').fill('');
    await renderedControl(dialog, 'Company registration number').fill('ABC');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Please correct the validation errors.')).toBeVisible();
    await expectRefused(dialog, 'Registered company name', 'Registered company name is required.');
    await expectRefused(
      dialog,
      'Company registration number',
      'Enter the 8-character company number, for example 01234567 or SC123456.',
    );
    await expectNoSeriousAccessibilityViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });
});
