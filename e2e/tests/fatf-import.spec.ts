import { expect, test, type Page } from '@playwright/test';
import {
  describeSignedInAs,
  expectNoSeriousAccessibilityViolations,
  staffMember,
  toast,
} from './helpers.ts';
import { apiAs, goToCountries, isoCountries, showRowWith } from './reference-data-helpers.ts';

// Spec part 2: the ratings import wizard (sections 2, 4, 5, 8 and 9), /fatf/data and the
// countries' risk from the imported ratings (docs/fatf-import.md).

const HEADER = [
  'Jurisdiction',
  'Report Type',
  'Report Date',
  'Assessment body/bodies',
  ...Array.from({ length: 11 }, (_, index) => `IO${index + 1}`),
  ...Array.from({ length: 40 }, (_, index) => `R${index + 1}`),
];

/** A row of the FATF table: all IOs `io`, all Recommendations `r`. */
function row(jurisdiction: string, date: string, io: string, r: string): string {
  const cells = [
    jurisdiction,
    'MER',
    date,
    'FATF',
    ...Array<string>(11).fill(io),
    ...Array<string>(40).fill(r),
  ];
  return cells
    .map((cell) => (/[",;]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell))
    .join(';');
}

/** Semicolons and a byte order mark, as a spreadsheet exports them; a title row above. */
function csv(rows: string[]): Buffer {
  return Buffer.from(
    `\uFEFFConsolidated assessment ratings\n${HEADER.join(';')}\n${rows.join('\n')}\n`,
  );
}

async function chooseFile(page: Page, name: string, content: Buffer) {
  await page
    .getByLabel('Ratings CSV file')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: content });
}

describeSignedInAs('as a staff member', staffMember, () => {
  test('imports 200 jurisdictions after a file with errors; history, statistics, export and risk follow', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto('/dashboard/fatf-import');
    await expect(
      page.getByRole('heading', { level: 1, name: 'FATF Ratings Import' }),
    ).toBeVisible();
    const stats = page.getByRole('region', { name: 'Import Statistics' });
    await expect(stats.getByText('Never')).toBeVisible();

    // A file with errors: listed, counted, and no way forward.
    await chooseFile(
      page,
      'bad.csv',
      csv([
        row('Spain', '2014-12-01', 'SE', 'C'),
        ...Array.from({ length: 7 }, (_, index) => row(`Bad ${index}`, 'soon', 'SE', 'C')),
      ]),
    );
    await expect(toast(page, 'File parsed with 7 errors')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Errors' }).getByRole('listitem')).toHaveCount(6);
    await expect(page.getByRole('button', { name: 'Proceed to Import' })).toBeDisabled();

    // 200 jurisdictions named as the ISO list names them; Spain rated NC on everything.
    const names = isoCountries()
      .map((country) => country.name)
      .slice(0, 200);
    if (!names.includes('Spain')) names[199] = 'Spain';
    const rows = names.map((name) =>
      name === 'Spain' ? row(name, '2019-06-01', 'LE', 'NC') : row(name, '2019-06-01', 'SE', 'LC'),
    );
    await chooseFile(page, 'fatf-ratings.csv', csv(rows));
    await expect(
      page.getByRole('status').filter({ hasText: '200 records, 0 errors' }),
    ).toBeVisible();
    await expect(page.getByRole('table', { name: 'Sample records' }).getByRole('row')).toHaveCount(
      6,
    );
    await expect(
      page.getByRole('list', { name: 'Jurisdictions' }).getByRole('listitem'),
    ).toHaveCount(11);
    await expect(page.getByText('+190 more')).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);
    await page.getByRole('button', { name: 'Proceed to Import' }).click();

    await expect(page.getByRole('checkbox', { name: 'Validate chronology' })).toBeChecked();
    await page.getByRole('button', { name: 'Start Import' }).click();
    await page.getByRole('button', { name: 'View Results' }).click({ timeout: 60_000 });
    const results = page.getByRole('region', { name: 'Review Results' });
    await expect(results.getByText('Records imported').locator('..')).toContainText('200');

    // History and statistics.
    await expect(stats.getByText('Total records').locator('..')).toContainText('200');
    await page.getByRole('button', { name: 'View Import History' }).click();
    const history = page.getByRole('dialog', { name: 'Import History' });
    await expect(history.getByRole('cell', { name: 'Completed' })).toBeVisible();
    await page.keyboard.press('Escape');

    // Export: a spreadsheet named after today.
    const download = page.waitForEvent('download');
    await results.getByRole('button', { name: 'Export Data' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(
      `fatf-data-${new Date().toISOString().slice(0, 10)}.xlsx`,
    );

    // The imported data, paged.
    await results.getByRole('button', { name: 'View Imported Data' }).click();
    await expect(page).toHaveURL(/\/fatf\/data$/);
    await expect(page.getByRole('table', { name: 'FATF Data' }).getByRole('row')).toHaveCount(11);

    // The country-risk worker runs after the import: Spain becomes High on the Countries screen.
    const api = await apiAs(page);
    await expect
      .poll(async () => (await api.countries()).find((country) => country.id === 724)?.cachedRisk)
      .toBe('High');
    const countries = await goToCountries(page);
    const spain = await showRowWith(countries, 'Spain');
    await expect(spain.getByRole('cell', { name: 'High', exact: true })).toBeVisible();
  });

  test('the guide explains the file and opens without signing in', async ({ page }) => {
    await page.goto('/docs/fatf-import');
    await expect(
      page.getByRole('heading', { level: 1, name: 'FATF Ratings Import Guide' }),
    ).toBeVisible();
    await expect(page.getByText(/R1-R40: C, LC, PC, NC, NA/)).toBeVisible();
    await expectNoSeriousAccessibilityViolations(page);
  });
});
