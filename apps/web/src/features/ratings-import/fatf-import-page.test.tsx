import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RatingsImportJob } from '@console/contracts';
import { RATINGS_FILE_MESSAGES } from '@console/contracts/ratings-csv';
import { STAFF_USER } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import { setUpScreenTests } from '@/test/screen-tests';
import { itemTexts, type User } from '@/test/queries';
import FatfImportPage from '.';

setUpScreenTests(STAFF_USER);

const HEADER = 'Jurisdiction,Report Type,Report Date,Assessment Body,IO1,R1';

/** A CSV of `count` valid rows, jurisdictions 'Country 1'... */
function goodCsv(count: number): string {
  const rows = Array.from(
    { length: count },
    (_, index) => `Country ${index + 1},MER,2020-01-01,FATF,SE,C`,
  );
  return [HEADER, ...rows].join('\n');
}

const STATS = { totalImports: 3, totalRecords: 120, countriesWithData: 40, lastImportDate: null };

function job(overrides: Partial<RatingsImportJob>): RatingsImportJob {
  return {
    id: 7,
    status: 'processing',
    progress: 40,
    message: 'Processed 400 of 1000 records',
    startTime: '2026-11-25T10:00:00.000Z',
    endTime: null,
    createdBy: 'staff@example.com',
    recordCount: 12,
    options: { overwriteExisting: false, validateChronology: true, skipInvalidRecords: true },
    result: null,
    ...overrides,
  };
}

const COMPLETED = job({
  status: 'completed',
  progress: 100,
  message: 'Imported 10 of 12 records',
  result: {
    importId: 7,
    recordsProcessed: 12,
    recordsImported: 10,
    recordsSkipped: 2,
    errors: Array.from({ length: 7 }, (_, index) => ({
      message: `Record ${index + 3}: report date 2014-12-01 is before the latest report of Spain (2019-06-01)`,
    })),
  },
});

function renderPage(routes: Record<string, unknown> = {}) {
  const api = mockApi({ 'GET /api/fatf/stats': STATS, ...routes });
  renderScreen(<FatfImportPage />, { path: '/dashboard/fatf-import' });
  return api;
}

async function upload(user: User, text: string, name = 'ratings.csv') {
  const input = screen.getByLabelText('Ratings CSV file');
  await user.upload(input, new File([text], name, { type: 'text/csv' }));
}

const proceed = () => screen.getByRole('button', { name: 'Proceed to Import' });

describe('FATF ratings import', () => {
  it('shows the statistics and the three steps, step 1 current', async () => {
    renderPage();
    const stats = await screen.findByRole('region', { name: 'Import Statistics' });
    await waitFor(() => expect(within(stats).getByText('120')).toBeInTheDocument());
    expect(within(stats).getByText('Never')).toBeInTheDocument();
    expect(itemTexts(screen.getByRole('list', { name: 'Import steps' }))).toEqual([
      '1. Upload File',
      '2. Configure Import',
      '3. Review Results',
    ]);
    expect(screen.getByText('1. Upload File')).toHaveAttribute('aria-current', 'step');
    expect(proceed()).toBeDisabled();
  });

  it('refuses a file that is not a CSV with a toast, and reads nothing', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderPage();
    await upload(user, goodCsv(2), 'ratings.xlsx');
    expect(await screen.findByText(RATINGS_FILE_MESSAGES.type)).toBeInTheDocument();
    expect(proceed()).toBeDisabled();
  });

  it('lists the first 5 errors of a file, says how many, and keeps Proceed disabled', async () => {
    const user = userEvent.setup();
    renderPage();
    const bad = Array.from({ length: 7 }, (_, index) => `Country ${index},MER,soon,FATF,SE,C`);
    await upload(user, [HEADER, 'Spain,MER,2020-01-01,FATF,SE,C', ...bad].join('\n'));
    expect(await screen.findByText('File parsed with 7 errors')).toBeInTheDocument();
    const errors = screen.getByRole('list', { name: 'Errors' });
    expect(itemTexts(errors)).toEqual([
      'Row 3, reportDate: Invalid date format (soon)',
      'Row 4, reportDate: Invalid date format (soon)',
      'Row 5, reportDate: Invalid date format (soon)',
      'Row 6, reportDate: Invalid date format (soon)',
      'Row 7, reportDate: Invalid date format (soon)',
      'and 2 more',
    ]);
    expect(proceed()).toBeDisabled();
  });

  it('lists the first 5 warnings, and the error toast closes after 5 s', async () => {
    const user = userEvent.setup();
    renderPage();
    const extra = ['A', 'B', 'C', 'D', 'E', 'F'].map((name) => `Extra ${name}`);
    const rows = ['Spain,MER,2020-01-01,FATF,SE,C,,,,,,', 'Peru,MER,soon,FATF,SE,C,,,,,,'];
    await upload(user, [[HEADER, ...extra].join(','), ...rows].join('\n'));
    const warnings = await screen.findByRole('list', { name: 'Warnings' });
    expect(itemTexts(warnings)).toHaveLength(5 + 1);
    expect(itemTexts(warnings).at(-1)).toBe('and 1 more');
    const toast = await screen.findByText('File parsed with 1 errors');
    // Still there after sonner's own default of 4 s; gone soon after 5 s.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(toast).toBeInTheDocument();
    await waitFor(() => expect(toast).not.toBeInTheDocument(), { timeout: 2500 });
  }, 10_000);

  it('previews 5 records and 10 jurisdictions then +N more, imports, and shows the result', async () => {
    const user = userEvent.setup();
    let polls = 0;
    const api = renderPage({
      'POST /api/fatf/import': jsonResponse({ importId: 7 }, 201),
      'GET /api/fatf/import/7/status': () => (++polls === 1 ? job({}) : COMPLETED),
    });
    await upload(user, goodCsv(12));
    const sample = await screen.findByRole('table', { name: 'Sample records' });
    expect(within(sample).getAllByRole('row')).toHaveLength(1 + 5);
    const jurisdictions = itemTexts(screen.getByRole('list', { name: 'Jurisdictions' }));
    expect(jurisdictions).toHaveLength(11);
    expect(jurisdictions.at(-1)).toBe('+2 more');

    await user.click(proceed());
    expect(screen.getByText('2. Configure Import')).toHaveAttribute('aria-current', 'step');
    expect(screen.getByRole('checkbox', { name: 'Overwrite existing records' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Validate chronology' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Skip invalid records' }));
    await user.click(screen.getByRole('button', { name: 'Start Import' }));

    expect(await screen.findByRole('progressbar', { name: 'Import progress' })).toHaveAttribute(
      'aria-valuenow',
      '40',
    );
    // Polled every second until completed.
    await user.click(
      await screen.findByRole('button', { name: 'View Results' }, { timeout: 3000 }),
    );
    const [start] = api.callsTo('POST', '/api/fatf/import');
    expect(start?.body).toMatchObject({
      options: { overwriteExisting: false, validateChronology: true, skipInvalidRecords: false },
    });
    expect((start?.body as { records: unknown[] }).records).toHaveLength(12);

    const results = screen.getByRole('region', { name: 'Review Results' });
    expect(within(results).getByText('Records imported').nextSibling).toHaveTextContent('10');
    // The first 5 of the import's 7 errors.
    const importErrors = itemTexts(within(results).getByRole('list', { name: 'Import errors' }));
    expect(importErrors).toHaveLength(5);
    expect(importErrors[0]).toBe(
      'Record 3: report date 2014-12-01 is before the latest report of Spain (2019-06-01)',
    );
    await user.click(screen.getByRole('button', { name: 'Import Another File' }));
    expect(screen.getByText('1. Upload File')).toHaveAttribute('aria-current', 'step');
    expect(proceed()).toBeDisabled();
  });

  it('cancels: stops polling, cancels the job and shows it as failed', async () => {
    const user = userEvent.setup();
    const api = renderPage({
      'POST /api/fatf/import': jsonResponse({ importId: 7 }, 201),
      'GET /api/fatf/import/7/status': job({}),
      'DELETE /api/fatf/import/7': new Response(null, { status: 204 }),
    });
    await upload(user, goodCsv(2));
    await user.click(await screen.findByRole('button', { name: 'Proceed to Import' }));
    await user.click(screen.getByRole('button', { name: 'Start Import' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel Import' }));
    expect(await screen.findByText('Import cancelled by user')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('DELETE', '/api/fatf/import/7')).toHaveLength(1));
    const polls = api.callsTo('GET', '/api/fatf/import/7/status').length;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(api.callsTo('GET', '/api/fatf/import/7/status')).toHaveLength(polls);
    await user.click(screen.getByRole('button', { name: 'Back to Upload' }));
    expect(screen.getByText('1. Upload File')).toHaveAttribute('aria-current', 'step');
  });

  it.each([
    [
      'its message',
      'Record 2: jurisdiction: Jurisdiction name is required',
      'Record 2: jurisdiction: Jurisdiction name is required',
    ],
    ['"Import failed" without one', '', 'Import failed'],
  ])('shows a failed import with %s', async (_case, message, shown) => {
    const user = userEvent.setup();
    renderPage({
      'POST /api/fatf/import': jsonResponse({ importId: 7 }, 201),
      'GET /api/fatf/import/7/status': job({ status: 'failed', message }),
    });
    await upload(user, goodCsv(2));
    await user.click(await screen.findByRole('button', { name: 'Proceed to Import' }));
    await user.click(screen.getByRole('button', { name: 'Start Import' }));
    expect(await screen.findByText(shown)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to Upload' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View Results' })).not.toBeInTheDocument();
  });

  it('says "Failed to start import" when the server refuses', async () => {
    const user = userEvent.setup();
    renderPage({ 'POST /api/fatf/import': jsonResponse({ message: 'no' }, 500) });
    await upload(user, goodCsv(2));
    await user.click(await screen.findByRole('button', { name: 'Proceed to Import' }));
    await user.click(screen.getByRole('button', { name: 'Start Import' }));
    expect(await screen.findByText('Failed to start import')).toBeInTheDocument();
  });

  it('lists the import history in its dialog', async () => {
    const user = userEvent.setup();
    renderPage({
      'GET /api/fatf/imports': [
        COMPLETED,
        job({ id: 6, status: 'cancelled', message: 'Import cancelled by user' }),
      ],
    });
    await user.click(screen.getByRole('button', { name: 'View Import History' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import History' });
    const table = await within(dialog).findByRole('table', { name: 'Import History' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getByText('Completed')).toBeInTheDocument();
    expect(within(table).getByText('Import cancelled by user')).toBeInTheDocument();
  });

  it('says "Failed to export data" when the export fails', async () => {
    const user = userEvent.setup();
    renderPage({ 'GET /api/fatf/export': jsonResponse({ message: 'down' }, 503) });
    await user.click(screen.getByRole('button', { name: 'Export Data' }));
    expect(await screen.findByText('Failed to export data')).toBeInTheDocument();
  });
});
