import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StoredRating } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { mockApi, renderScreen } from '@/app/testing/screen';
import { setUpScreenTests } from '@/test/screen-tests';
import { columnHeaders } from '@/test/queries';
import FatfDataPage, { gradeCounts } from './fatf-data-page';
import FatfImportDocsPage from './docs-page';

setUpScreenTests(STAFF_USER);

function rating(id: number, jurisdiction: string, countryName: string | null): StoredRating {
  return {
    id,
    jurisdiction,
    countryName,
    reportType: 'MER',
    reportDate: '2020-01-01',
    assessmentBody: 'FATF',
    effectiveness: { io1: 'SE', io2: 'ME', io3: 'ME' },
    compliance: { r1: 'C', r2: 'NC', r3: 'NA' },
    upgrades: null,
    downgrades: null,
    reportUrl: null,
  };
}

describe('/fatf/data', () => {
  it('shows one page of the stored ratings, and asks the server for the next', async () => {
    const user = userEvent.setup();
    const api = mockApi({
      'GET /api/fatf/ratings': {
        data: [rating(1, 'Atlantis', null), rating(2, 'Spain', 'Spain')],
        totalCount: 25,
        offset: 0,
        limit: 10,
      },
    });
    renderScreen(<FatfDataPage />, { path: '/fatf/data' });
    const table = await screen.findByRole('table', { name: 'FATF Data' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(columnHeaders(table)).toEqual([
      'Jurisdiction',
      'Country',
      'Report Type',
      'Report Date',
      'Assessment Body',
      'Effectiveness (IO1-IO11)',
      'Compliance (R1-R40)',
    ]);
    expect(within(table).getByText('Not matched')).toBeInTheDocument();
    expect(within(table).getAllByText('SE 1 · ME 2')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: /next/i }));
    await waitFor(() =>
      expect(api.spy.mock.calls.some(([url]) => String(url).includes('offset=10&limit=10'))).toBe(
        true,
      ),
    );
  });

  it('counts ratings by grade, leaving out grades without any', () => {
    expect(gradeCounts({ r1: 'C', r2: 'C', r3: 'NA' }, ['C', 'LC', 'PC', 'NC', 'NA'])).toBe(
      'C 2 · NA 1',
    );
    expect(gradeCounts({}, ['HE'])).toBe('');
  });
});

describe('/docs/fatf-import', () => {
  it('explains the file, the codes of each column and the options', () => {
    renderScreen(<FatfImportDocsPage />, { path: '/docs/fatf-import' });
    expect(
      screen.getByRole('heading', { level: 1, name: 'FATF Ratings Import Guide' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/IO1-IO11: HE, SE, ME, LE/)).toBeInTheDocument();
    expect(screen.getByText(/R1-R40: C, LC, PC, NC, NA/)).toBeInTheDocument();
    expect(screen.getByText(/MER\+FURs\+FUAR/)).toBeInTheDocument();
    expect(screen.getByText(/^Skip invalid records:/)).toBeInTheDocument();
  });
});
