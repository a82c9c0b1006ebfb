import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  admin,
  describeSignedInAs,
  expectNoSeriousAccessibilityViolations,
  expectToBeOn,
  staffMember,
  userMenuButton,
  toast,
} from './helpers.ts';
import {
  apiAs,
  bodyRows,
  columnHeader,
  confirmDeletion,
  firstRow,
  goToDocumentTypes,
  importThroughFilePicker,
  jsonFile,
  rowWith,
  sortBy,
} from './reference-data-helpers.ts';

// Spec part 1: section 2 ("Document types screen", the dialog), section 5 (document type ID,
// tags, validity period, import files), section 8 ("Delete document type") and section 9 (the
// expected form's name).

/**
 * The demo seed's document types, by sequence. The seed has the forms of the passport and the
 * driving licence (db/seed/forms.ts), not of the others.
 */
const SEEDED_IDS = [
  'passport',
  'driving_licence',
  'national_identity_card',
  'residence_permit',
  'visa',
];

/** An ID of this test's own: unique per run, valid, short. */
function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}`;
}

function dialog(page: Page, name: 'Add Document Type' | 'Edit Document Type'): Locator {
  return page.getByRole('dialog', { name });
}

/**
 * A row's ID in its first cell, which carries the missing-form highlight and tooltip (and, for
 * screen readers, the tooltip's text after the ID).
 */
function idOf(row: Locator, id: string): Locator {
  return row
    .getByRole('cell')
    .first()
    .getByText(new RegExp(`^${id}(,|$)`));
}

describeSignedInAs('as an administrator', admin, () => {
  test('the seeded types are listed, those without their form in yellow with a tooltip', async ({
    page,
  }) => {
    const table = await goToDocumentTypes(page);
    for (const [index, id] of SEEDED_IDS.entries()) {
      await expect(idOf(bodyRows(table).nth(index), id)).toBeVisible();
    }

    const passport = rowWith(table, 'Passport');
    await expect(passport.getByRole('cell').nth(2)).toContainText('identity');
    await expect(passport.getByRole('cell').nth(3)).toContainText('onfido: passport');
    await expect(passport.getByRole('cell').nth(4)).toHaveText('10');

    // The passport and the driving licence have their forms.
    await expect(idOf(bodyRows(table).first(), 'passport')).not.toHaveClass(/bg-yellow-100/);
    await expect(idOf(rowWith(table, 'Driving licence'), 'driving_licence')).not.toHaveClass(
      /bg-yellow-100/,
    );

    const id = idOf(bodyRows(table).nth(2), 'national_identity_card');
    await expect(id).toHaveClass(/bg-yellow-100/);
    await id.hover();
    await expect(page.getByRole('tooltip')).toHaveText(
      'Expected form EditIndividualId_nationalidentitycard is missing',
    );
    // Keyboard users get it too.
    await page.keyboard.press('Escape');
    await page.mouse.move(0, 0, { steps: 5 });
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await idOf(rowWith(table, 'Residence permit'), 'residence_permit').focus();
    await expect(page.getByRole('tooltip')).toHaveText(
      'Expected form EditIndividualId_residencepermit is missing',
    );
  });

  test('sorts by ID, display name and sequence', async ({ page }) => {
    const table = await goToDocumentTypes(page);
    await sortBy(table, 'ID');
    await expect(columnHeader(table, 'ID')).toHaveAttribute('aria-sort', 'ascending');
    expect((await firstRow(table))[1]).toBe('Driving licence');
    await sortBy(table, 'ID');
    expect((await firstRow(table))[1]).toBe('Visa');
    await sortBy(table, 'Display Name');
    expect((await firstRow(table))[1]).toBe('Driving licence');
    await sortBy(table, 'Sequence');
    expect((await firstRow(table))[1]).toBe('Passport');
    await sortBy(table, 'Sequence');
    await expect(columnHeader(table, 'Sequence')).toHaveAttribute('aria-sort', 'descending');
  });

  test('creates, edits and deletes a document type through the dialog, with every ID message', async ({
    page,
  }) => {
    const id = newId('e2e_card');
    try {
      const table = await goToDocumentTypes(page);
      await page.getByRole('button', { name: 'Add Document Type' }).click();
      const add = dialog(page, 'Add Document Type');
      const idInput = add.getByRole('textbox', { name: 'ID' });
      const save = add.getByRole('button', { name: 'Save' });
      await expect(save).toBeDisabled();

      // Every ID message of spec 5, under the field; Save stays disabled while the ID is invalid.
      await add.getByRole('textbox', { name: 'Display Name' }).fill('E2E health card');
      await idInput.pressSequentially('9');
      await expect(add.getByText('ID must start with a lowercase letter')).toBeVisible();
      await expect(save).toBeDisabled();
      await idInput.fill('');
      await expect(add.getByText('ID is required')).toBeVisible();
      await expect(save).toBeDisabled();
      await idInput.fill('a'.repeat(51));
      await expect(add.getByText('ID must be 50 characters or less')).toBeVisible();
      await expect(save).toBeDisabled();
      await idInput.fill('');
      await idInput.pressSequentially('E2e-card');
      await expect(idInput).toHaveValue('2ecard');
      await expect(
        add.getByText('ID can only contain lowercase letters, numbers, and underscores'),
      ).toBeHidden();
      await idInput.pressSequentially('-');
      await expect(
        add.getByText('ID can only contain lowercase letters, numbers, and underscores'),
      ).toBeVisible();
      await idInput.fill(id);
      await expect(add.getByText(/^ID /)).toHaveCount(0); // no message
      await expect(save).toBeEnabled();

      // Tags and API references: a name used before has no warning, a new one has.
      const tagInput = add.getByRole('textbox', { name: 'Tags' });
      await tagInput.fill('Identity, e2e-health');
      await tagInput.press('Enter');
      const tags = add.getByRole('list', { name: 'Tags' });
      await expect(tags.getByRole('listitem')).toHaveText([
        'identity',
        'e2e-healthnew, first time used',
      ]);
      await add.getByRole('button', { name: 'Add API reference' }).click();
      await add.getByRole('textbox', { name: 'Service name 1' }).fill('onfido');
      await add.getByRole('textbox', { name: 'Reference value 1' }).fill('health_card');
      await expect(
        add.getByRole('textbox', { name: 'Service name 1' }),
      ).not.toHaveAccessibleDescription('new, first time used');
      await add.getByRole('button', { name: 'Add API reference' }).click();
      await add.getByRole('textbox', { name: 'Service name 2' }).fill('e2e_vendor');
      await add.getByRole('textbox', { name: 'Reference value 2' }).fill('HC');
      await expect(
        add.getByRole('textbox', { name: 'Service name 2' }),
      ).toHaveAccessibleDescription('new, first time used');

      // Validity period: months 0-11.
      await add.getByRole('spinbutton', { name: 'Months' }).fill('12');
      await expect(add.getByText('Months must be a whole number from 0 to 11')).toBeVisible();
      await save.click();
      await expect(add).toBeVisible();
      await add.getByRole('spinbutton', { name: 'Months' }).fill('6');
      await add.getByRole('spinbutton', { name: 'Years' }).fill('2');
      await add.getByRole('spinbutton', { name: 'Sequence' }).fill('60');
      await save.click();

      await expect(toast(page, `Document type ${id} created`)).toBeVisible();
      await expect(add).toBeHidden();
      const row = rowWith(table, 'E2E health card');
      await expect(row).toBeVisible();
      await expect(row.getByRole('cell').nth(2).getByRole('listitem')).toHaveText([
        'identity',
        'e2e-health',
      ]);
      await expect(row.getByRole('cell').nth(3).getByRole('listitem')).toHaveText([
        'e2e_vendor: HC',
        'onfido: health_card',
      ]);
      await expect(idOf(row, id)).toHaveClass(/bg-yellow-100/);

      // Edit: the ID is read-only, the rest is as saved.
      await row.getByRole('button', { name: `Edit ${id}` }).click();
      const edit = dialog(page, 'Edit Document Type');
      await expect(edit.getByRole('textbox', { name: 'ID' })).toHaveValue(id);
      await expect(edit.getByRole('textbox', { name: 'ID' })).toHaveAttribute('readonly', '');
      await expect(edit.getByRole('spinbutton', { name: 'Years' })).toHaveValue('2');
      await expect(edit.getByRole('spinbutton', { name: 'Months' })).toHaveValue('6');
      await edit.getByRole('textbox', { name: 'Display Name' }).fill('E2E health insurance card');
      await edit.getByRole('button', { name: 'Remove tag e2e-health' }).click();
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect(toast(page, `Document type ${id} updated`)).toBeVisible();
      const edited = rowWith(table, 'E2E health insurance card');
      await expect(edited.getByRole('cell').nth(2)).toHaveText('identity');

      // Delete.
      await edited.getByRole('button', { name: `Delete ${id}` }).click();
      await confirmDeletion(page, 'Delete document type?');
      await expect(toast(page, `Document type ${id} deleted`)).toBeVisible();
      await expect(rowWith(table, 'E2E health insurance card')).toHaveCount(0);
    } finally {
      // Nothing is left behind, whatever failed (a 404 here is the ordinary case).
      await (await apiAs(page)).deleteDocumentType(id);
    }
  });

  test("the server's refusal shows in the dialog, which keeps what was typed", async ({ page }) => {
    await goToDocumentTypes(page);
    await page.getByRole('button', { name: 'Add Document Type' }).click();
    const add = dialog(page, 'Add Document Type');
    await add.getByRole('textbox', { name: 'ID' }).fill('passport');
    await add.getByRole('textbox', { name: 'Display Name' }).fill('Another passport');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByRole('alert')).toHaveText(
      'A document type with ID passport already exists.',
    );
    await expect(add.getByRole('textbox', { name: 'Display Name' })).toHaveValue(
      'Another passport',
    );
    await add.getByRole('button', { name: 'Cancel' }).click();
    await expect(add).toBeHidden();
  });

  test('imports document types from a JSON file', async ({ page }) => {
    const id = newId('e2e_import');
    const table = await goToDocumentTypes(page);
    try {
      await importThroughFilePicker(
        page,
        'Import Document Types',
        jsonFile('document-types.json', 'not json'),
      );
      await expect(toast(page, 'Invalid JSON file format')).toBeVisible();
      await importThroughFilePicker(
        page,
        'Import Document Types',
        jsonFile('document-types.json', [{ id, displayName: 'E2E imported', tags: ['x'] }]),
      );
      await expect(
        toast(
          page,
          'Invalid data structure. Each document type must have id, displayName, a tags array and an apiReferences object; the record at index 0 does not.',
        ),
      ).toBeVisible();

      await importThroughFilePicker(
        page,
        'Import Document Types',
        jsonFile('document-types.json', [
          { id, displayName: 'E2E imported', tags: ['Imported'], apiReferences: { onfido: 'x' } },
        ]),
      );
      await expect(toast(page, 'Imported 1 document type')).toBeVisible();
      await expect(rowWith(table, 'E2E imported').getByRole('cell').nth(2)).toHaveText('imported');
    } finally {
      await (await apiAs(page)).deleteDocumentType(id);
    }
  });

  test('has no serious accessibility violation, nor has the dialog', async ({ page }) => {
    await goToDocumentTypes(page);
    await expectNoSeriousAccessibilityViolations(page);
    await page.getByRole('button', { name: 'Edit passport' }).click();
    const edit = dialog(page, 'Edit Document Type');
    // The references in order of service name.
    await expect(edit.getByRole('textbox', { name: 'Service name 1' })).toHaveValue('idenfy');
    await edit.getByRole('textbox', { name: 'Tags' }).fill('brand-new');
    await edit.getByRole('textbox', { name: 'Tags' }).press('Enter');
    await edit.getByRole('spinbutton', { name: 'Days' }).fill('31');
    await expect(edit.getByText('Days must be a whole number from 0 to 30')).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);
  });
});

describeSignedInAs('as a staff member', staffMember, () => {
  test('deleting says access is denied, and the session goes on', async ({ page }) => {
    const table = await goToDocumentTypes(page);
    await page.getByRole('button', { name: 'Delete visa' }).click();
    await confirmDeletion(page, 'Delete document type?');
    await expect(
      toast(page, 'Access denied. Admin privileges required to delete document types.'),
    ).toBeVisible();
    await expectToBeOn(page, '/dashboard/document-types');
    await expect(rowWith(table, 'Visa')).toBeVisible();
    await expect(userMenuButton(page)).toContainText(staffMember.email);
  });
});
