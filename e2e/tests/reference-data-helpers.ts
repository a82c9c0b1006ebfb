import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';
import { signedInApi } from './helpers.ts';

/**
 * Verbs of the countries and document types scenarios (spec part 1, section 2): going to the
 * screens, reading and sorting their tables, paging, importing a file through the file picker,
 * the toasts, and the API calls a test makes to set up and clean up its own data.
 */

export interface CountryRecord {
  id: number;
  alpha2: string;
  alpha3: string;
  name: string;
}

/** GET api/countries, as the server answers it. */
export interface Country {
  id: number;
  countryName: string;
  alpha2Code: string;
  alpha3Code: string;
  sequence: number | null;
  validFrom: string | null;
  validTo: string | null;
  cachedRisk: string | null;
  cachedRiskAt: string | null;
}

export const isoCountriesFile = fileURLToPath(
  new URL('../fixtures/iso-3166-1-countries.json', import.meta.url),
);

/** Every ISO 3166-1 country in the import shape (e2e/fixtures/README.md says where from). */
export function isoCountries(): CountryRecord[] {
  return JSON.parse(readFileSync(isoCountriesFile, 'utf8')) as CountryRecord[];
}

/** The countries of the demo tenants' domiciles (United States, United Kingdom): in use. */
export const COUNTRIES_IN_USE = [840, 826];

// ---------------------------------------------------------------------------------------------
// Screens and tables

/**
 * Opens the list screen at `path`, waits for its heading `title` and for the first row of its
 * table (named `title` too) to be filled, and returns the table.
 */
export async function goToListScreen(page: Page, path: string, title: string): Promise<Locator> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const table = page.getByRole('table', { name: title });
  await expect(bodyRows(table).first().getByRole('cell').first()).not.toBeEmpty();
  return table;
}

export function goToCountries(page: Page): Promise<Locator> {
  return goToListScreen(page, '/dashboard/countries', 'Countries');
}

export function goToDocumentTypes(page: Page): Promise<Locator> {
  return goToListScreen(page, '/dashboard/document-types', 'Document Types');
}

/** The rows of the table's body (its second row group; the first holds the header). */
export function bodyRows(table: Locator): Locator {
  return table.getByRole('rowgroup').nth(1).getByRole('row');
}

/** The cells of the first body row, as text. */
export async function firstRow(table: Locator): Promise<string[]> {
  return bodyRows(table).first().getByRole('cell').allInnerTexts();
}

/** The row whose cells hold `text` (e.g. a country's name). */
export function rowWith(table: Locator, text: string): Locator {
  return bodyRows(table).filter({
    has: table.page().getByRole('cell', { name: text, exact: true }),
  });
}

export function columnHeader(table: Locator, name: string): Locator {
  return table.getByRole('columnheader', { name, exact: true });
}

/** Clicks a column's sort button: ascending first, then it toggles. */
export async function sortBy(table: Locator, column: string): Promise<void> {
  await columnHeader(table, column).getByRole('button').click();
}

/** The 'page X of Y' indicator under a list. */
export function pageIndicator(page: Page): Locator {
  return page.getByText(/^page \d+ of \d+$/);
}

export async function choosePageSize(page: Page, size: 10 | 25 | 50 | 100): Promise<void> {
  await page.getByRole('combobox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: String(size), exact: true }).click();
}

/** Pages forward until the row holding `text` is shown; fails on the last page without it. */
export async function showRowWith(table: Locator, text: string): Promise<Locator> {
  const page = table.page();
  const row = rowWith(table, text);
  const next = page.getByRole('button', { name: 'Next', exact: true });
  while ((await row.count()) === 0) {
    await expect(next, `no row with ${text}`).toBeEnabled();
    const before = await pageIndicator(page).innerText();
    await next.click();
    await expect(pageIndicator(page)).not.toHaveText(before);
  }
  return row;
}

/** Goes to the last page with Next. */
export async function goToLastPage(page: Page): Promise<void> {
  const next = page.getByRole('button', { name: 'Next', exact: true });
  while (await next.isEnabled()) {
    const before = await pageIndicator(page).innerText();
    await next.click();
    await expect(pageIndicator(page)).not.toHaveText(before);
  }
}

/** Confirms the open delete confirmation. */
export async function confirmDeletion(page: Page, title: string): Promise<void> {
  const dialog = page.getByRole('alertdialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog).toBeHidden();
}

// ---------------------------------------------------------------------------------------------
// Importing and toasts

export type ImportFile = string | { name: string; mimeType: string; buffer: Buffer };

export function jsonFile(name: string, content: unknown): ImportFile {
  return {
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(typeof content === 'string' ? content : JSON.stringify(content)),
  };
}

/** Clicks an import button and chooses `file` in the file picker it opens. */
export async function importThroughFilePicker(
  page: Page,
  button: string,
  file: ImportFile,
): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button, exact: true }).click();
  await (await chooser).setFiles(file);
}

// ---------------------------------------------------------------------------------------------
// The API, for a test's own set-up and clean-up

/**
 * The countries and document types calls as the signed-in user of `page`. Each fails the test
 * unless the server answers with a success, but for deleteDocumentType (a clean-up).
 */
export async function apiAs(page: Page) {
  const api = await signedInApi(page);
  return {
    countries: () => api.json<Country[]>(api.get('/api/countries')),
    importCountries: (records: CountryRecord[]) =>
      api.json<{ count: number }>(api.post('/api/countries/import', records)),
    deleteCountry: (id: number) => api.ok(api.delete(`/api/countries/${id}`)),
    deleteDocumentType: (id: string) => api.delete(`/api/documenttypes/${encodeURIComponent(id)}`),
  };
}

/** How many records of `file` an import writes: those the server does not hold as they are. */
export function recordsToWrite(file: CountryRecord[], held: Country[]): number {
  const byId = new Map(held.map((country) => [country.id, country]));
  return file.filter((record) => {
    const country = byId.get(record.id);
    return (
      !country ||
      country.alpha2Code !== record.alpha2.toUpperCase() ||
      country.alpha3Code !== record.alpha3.toUpperCase() ||
      country.countryName !== record.name.trim()
    );
  }).length;
}
