import { expect, test, type Page } from '@playwright/test';
import {
  admin,
  describeSignedInAs,
  expectNoSeriousAccessibilityViolations,
  expectToBeOn,
  staffMember,
  storedAuthTokens,
  storedItem,
  userMenuButton,
  toast,
} from './helpers.ts';
import {
  COUNTRIES_IN_USE,
  apiAs,
  bodyRows,
  choosePageSize,
  columnHeader,
  confirmDeletion,
  firstRow,
  goToCountries,
  goToLastPage,
  importThroughFilePicker,
  isoCountries,
  isoCountriesFile,
  jsonFile,
  pageIndicator,
  recordsToWrite,
  rowWith,
  showRowWith,
  sortBy,
  type Country,
} from './reference-data-helpers.ts';

// Spec part 1: section 2 ("Countries screen", "Common behaviour of list screens"), section 5
// ("Import files"), section 8 ("Delete country", "Import failures") and section 9 (page sizes).

/** Territories no demo tenant is domiciled in, which tests may delete and import back. */
const SPARE_COUNTRY_IDS = [10, 74, 86, 162, 166, 239, 260, 334, 581, 744];

/** Puts every ISO country back as it was, whatever a test deleted. */
async function restoreCountries(page: Page) {
  await (await apiAs(page)).importCountries(isoCountries());
}

describeSignedInAs('as an administrator', admin, () => {
  test('imports the full ISO 3166-1 list through the file picker and sees the count', async ({
    page,
  }) => {
    const api = await apiAs(page);
    // Ten countries are missing before the import, so that it has something to write.
    for (const id of SPARE_COUNTRY_IDS) await api.deleteCountry(id);
    const expected = recordsToWrite(isoCountries(), await api.countries());
    expect(expected).toBeGreaterThanOrEqual(SPARE_COUNTRY_IDS.length);
    try {
      await goToCountries(page);
      await expect(pageIndicator(page)).toHaveText('page 1 of 24');

      await importThroughFilePicker(page, 'Import Countries', isoCountriesFile);

      await expect(toast(page, `Imported ${expected} countries`)).toBeVisible();
      await expect(pageIndicator(page)).toHaveText('page 1 of 25');
      expect(await api.countries()).toHaveLength(249);
    } finally {
      await restoreCountries(page);
    }
  });

  test('a second import of the same list writes nothing', async ({ page }) => {
    await restoreCountries(page);
    await goToCountries(page);
    await importThroughFilePicker(page, 'Import Countries', isoCountriesFile);
    await expect(toast(page, 'Imported 0 countries')).toBeVisible();
  });

  test('a bad file is refused with its message and nothing is sent', async ({ page }) => {
    await goToCountries(page);
    const imports: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/countries/import')) imports.push(request.url());
    });
    const cases = [
      [jsonFile('countries.csv', isoCountries()), 'Please select a JSON file'],
      [jsonFile('countries.json', '[{"id": 4,'), 'Invalid JSON file format'],
      [
        jsonFile('countries.json', { countries: [] }),
        'Invalid JSON format. Expected an array of countries',
      ],
      [
        jsonFile('countries.json', [{ id: 4, alpha2: 'AF', name: 'Afghanistan' }]),
        'Invalid data structure. Each country must have id (a number), alpha2, alpha3 and name; the record at index 0 does not.',
      ],
    ] as const;
    for (const [file, message] of cases) {
      await importThroughFilePicker(page, 'Import Countries', file);
      await expect(toast(page, message)).toBeVisible();
    }
    expect(imports).toEqual([]);
  });

  test("the server's refusal of a record says 'Import failed: ...'", async ({ page }) => {
    await goToCountries(page);
    await importThroughFilePicker(
      page,
      'Import Countries',
      jsonFile('countries.json', [{ id: 4, alpha2: 'AFG', alpha3: 'AFG', name: 'Afghanistan' }]),
    );
    await expect(
      toast(page, 'Import failed: Record at index 0: alpha2 must be exactly 2 letters (A-Z)'),
    ).toBeVisible();
  });

  test('sorts by each column; the first row follows', async ({ page }) => {
    const table = await goToCountries(page);
    const countries = await (await apiAs(page)).countries();
    const columns: [string, (country: Country) => string | number | null][] = [
      ['ID', (c) => c.id],
      ['Country Name', (c) => c.countryName],
      ['Alpha2 Code', (c) => c.alpha2Code],
      ['Alpha3 Code', (c) => c.alpha3Code],
      ['Sequence', (c) => c.sequence],
      ['Valid From', (c) => c.validFrom],
      ['Valid To', (c) => c.validTo],
      ['Risk', (c) => c.cachedRisk],
      ['Risk Date', (c) => c.cachedRiskAt],
    ];
    for (const [column, valueOf] of columns) {
      await sortBy(table, column);
      await expect(columnHeader(table, column)).toHaveAttribute('aria-sort', 'ascending');
      expect((await firstRow(table))[0], `${column} ascending`).toBe(
        String(firstAfterSort(countries, valueOf, false).id),
      );
      await expect(pageIndicator(page)).toHaveText('page 1 of 25');

      await sortBy(table, column);
      await expect(columnHeader(table, column)).toHaveAttribute('aria-sort', 'descending');
      expect((await firstRow(table))[0], `${column} descending`).toBe(
        String(firstAfterSort(countries, valueOf, true).id),
      );
    }
    // The expectations above are not trivial: the ends of the alphabet are where they belong.
    await sortBy(table, 'Country Name');
    expect((await firstRow(table))[1]).toBe('Afghanistan');
    await sortBy(table, 'Country Name');
    expect((await firstRow(table))[1]).toBe('Zimbabwe');
  });

  test('remembers the chosen page size after a reload', async ({ page }) => {
    const table = await goToCountries(page);
    await expect(bodyRows(table)).toHaveCount(10);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(pageIndicator(page)).toHaveText('page 2 of 25');

    await choosePageSize(page, 50);
    await expect(pageIndicator(page)).toHaveText('page 1 of 5');
    await expect(bodyRows(table)).toHaveCount(50);

    await page.reload();
    await goToCountries(page);
    await expect(pageIndicator(page)).toHaveText('page 1 of 5');
    await expect(bodyRows(table)).toHaveCount(50);
    await expect(page.getByRole('combobox', { name: 'Rows per page' })).toHaveText('50');
    expect(await storedItem(page, 'countriesPageSize')).toBe('50');
  });

  test('deletes a country after confirmation; Cancel keeps it', async ({ page }) => {
    try {
      const table = await goToCountries(page);
      const row = await showRowWith(table, 'Bouvet Island');

      await row.getByRole('button', { name: 'Delete Bouvet Island' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete country?' });
      await expect(dialog).toContainText('This permanently deletes Bouvet Island (74)');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await expect(row).toBeVisible();

      await row.getByRole('button', { name: 'Delete Bouvet Island' }).click();
      await confirmDeletion(page, 'Delete country?');
      await expect(toast(page, 'Country Bouvet Island deleted')).toBeVisible();
      await expect(rowWith(table, 'Bouvet Island')).toHaveCount(0);
      expect((await (await apiAs(page)).countries()).some((c) => c.id === 74)).toBe(false);
    } finally {
      await restoreCountries(page);
    }
  });

  test('deleting the only row of the last page goes back a page', async ({ page }) => {
    const api = await apiAs(page);
    try {
      // 249 - 8 = 241 countries: the last of 25 pages holds one row.
      for (const id of SPARE_COUNTRY_IDS.slice(0, 8)) await api.deleteCountry(id);
      const table = await goToCountries(page);
      await goToLastPage(page);
      await expect(pageIndicator(page)).toHaveText('page 25 of 25');
      await expect(bodyRows(table)).toHaveCount(1);
      const [, name] = await firstRow(table);

      await bodyRows(table)
        .getByRole('button', { name: `Delete ${name}` })
        .click();
      await confirmDeletion(page, 'Delete country?');

      await expect(toast(page, `Country ${name} deleted`)).toBeVisible();
      await expect(pageIndicator(page)).toHaveText('page 24 of 24');
      await expect(bodyRows(table)).toHaveCount(10);
    } finally {
      await restoreCountries(page);
    }
  });

  test('a country a tenant is domiciled in cannot be deleted (409)', async ({ page }) => {
    expect(COUNTRIES_IN_USE).toContain(840);
    const table = await goToCountries(page);
    await choosePageSize(page, 100);
    const row = await showRowWith(table, 'United States of America');
    await row.getByRole('button', { name: 'Delete United States of America' }).click();
    await confirmDeletion(page, 'Delete country?');
    await expect(
      toast(
        page,
        'Cannot delete country United States of America because it is currently being used by existing tenants. Please reassign or remove the tenants first.',
      ),
    ).toBeVisible();
    await expect(row).toBeVisible();
  });

  test("'Import FATF data' leads to the FATF import; adding and editing are not offered", async ({
    page,
  }) => {
    const table = await goToCountries(page);
    await expect(page.getByRole('button', { name: 'Add Country' })).toBeDisabled();
    await expect(
      bodyRows(table)
        .first()
        .getByRole('button', { name: /^Edit / }),
    ).toBeDisabled();
    await page.getByRole('button', { name: 'Import FATF data' }).click();
    await expectToBeOn(page, '/dashboard/fatf-import');
  });

  test('has no serious accessibility violation', async ({ page }) => {
    await goToCountries(page);
    await expectNoSeriousAccessibilityViolations(page);
    await bodyRows(page.getByRole('table', { name: 'Countries' }))
      .first()
      .getByRole('button', { name: /^Delete / })
      .click();
    await expect(page.getByRole('alertdialog', { name: 'Delete country?' })).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);
  });
});

describeSignedInAs('as a staff member', staffMember, () => {
  test('deleting says access is denied, and the session goes on', async ({ page }) => {
    const table = await goToCountries(page);
    const [, name] = await firstRow(table);
    await bodyRows(table)
      .first()
      .getByRole('button', { name: `Delete ${name}` })
      .click();
    await confirmDeletion(page, 'Delete country?');

    await expect(
      toast(page, 'Access denied. Admin privileges required to delete countries.'),
    ).toBeVisible();
    await expectToBeOn(page, '/dashboard/countries');
    await expect(rowWith(table, name!)).toBeVisible();
    await expect(userMenuButton(page)).toContainText(staffMember.email);
    expect(await storedAuthTokens(page)).not.toBeNull();
    // Still signed in: the next call works.
    await page.reload();
    await goToCountries(page);
  });
});

/** The country a column's sort puts first: missing values last ascending, first descending. */
function firstAfterSort(
  countries: Country[],
  valueOf: (country: Country) => string | number | null,
  desc: boolean,
): Country {
  const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  const missing = (value: unknown) => value === null || value === undefined || value === '';
  const compare = (a: string | number | null, b: string | number | null) => {
    if (missing(a) || missing(b)) return missing(a) === missing(b) ? 0 : missing(a) ? 1 : -1;
    return typeof a === 'number' && typeof b === 'number'
      ? a - b
      : collator.compare(String(a), String(b));
  };
  const sorted = countries
    .map((country, index) => ({ country, index }))
    .sort(
      (x, y) =>
        (desc ? -1 : 1) * compare(valueOf(x.country), valueOf(y.country)) || x.index - y.index,
    );
  return sorted[0]!.country;
}
