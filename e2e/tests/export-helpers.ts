import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';

/**
 * Verbs of the export scenarios (issue 31, part 5): the Export control of a list screen, and the
 * downloaded files read back as a spreadsheet would read them.
 */

/**
 * Chooses `format` in the Export menu and waits for the file. Opened right after a download, the
 * menu can close at once: headless Chromium takes the window's focus away for the download and
 * gives it back to the element focused then (the Export button, outside the menu), which closes
 * a menu as any focus outside it does. The menu is then opened again.
 */
export async function exportAs(page: Page, format: 'CSV' | 'Excel (.xlsx)'): Promise<Download> {
  const download = page.waitForEvent('download');
  const item = page.getByRole('menuitem', { name: format });
  await expect(async () => {
    if (!(await item.isVisible())) await page.getByRole('button', { name: 'Export' }).click();
    await item.click({ timeout: 2_000 });
  }).toPass();
  return download;
}

/** A downloaded CSV's records, header first: starts with the BOM, every record ends in CRLF. */
export async function csvRecords(download: Download): Promise<string[][]> {
  const text = await readFile(await download.path(), 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  const parsed = Papa.parse<string[]>(text.slice(1, -2), { delimiter: ',', newline: '\r\n' });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

/** A downloaded workbook's rows (every sheet), header first, as their cells' values. */
export async function xlsxRecords(download: Download): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const rows: unknown[][] = [];
  workbook.eachSheet((sheet) =>
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1))),
  );
  return rows;
}

/** The name a list's file gets: the list and the time of the export, `events-2025-06-13T0830Z.csv`. */
export const FILE_NAME = (list: string, extension: string) =>
  new RegExp(`^${list}-\\d{4}-\\d\\d-\\d\\dT\\d{4}Z\\.${extension}$`);
