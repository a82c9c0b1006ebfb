import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Country } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import { getAuthSession } from '@/lib/auth-session';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import CountriesPage from '.';
import { setUpScreenTests } from '@/test/screen-tests';
import { columnHeaders, confirmDelete, type User } from '@/test/queries';

function country(id: number, name: string, alpha2: string, alpha3: string): Country {
  return {
    id,
    countryName: name,
    alpha2Code: alpha2,
    alpha3Code: alpha3,
    sequence: null,
    validFrom: null,
    validTo: null,
    cachedRisk: null,
    cachedRiskAt: null,
  };
}

const germany = country(276, 'Germany', 'DE', 'DEU');
const aland = country(248, 'Åland Islands', 'AX', 'ALA');
const unitedStates: Country = {
  ...country(840, 'United States of America', 'US', 'USA'),
  sequence: 1,
  cachedRisk: 'Low',
  cachedRiskAt: '2025-06-13T08:30:00.000Z',
};
const COUNTRIES = [unitedStates, germany, aland];

function renderPage() {
  return renderScreen(<CountriesPage />, { path: '/dashboard/countries' });
}

function table() {
  return screen.getByRole('table', { name: 'Countries' });
}

/** The text of each body row's first cell (the ID). */
function ids(): string[] {
  const [, ...rows] = within(table()).getAllByRole('row');
  return rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent ?? '');
}

const deleteRow = (user: User, name: string) => confirmDelete(user, name, 'Delete country?');

setUpScreenTests(STAFF_USER);

describe('countries screen', () => {
  it('shows every column, dates through the one formatter and N/A for what is not set', async () => {
    mockApi({ 'GET /api/countries': COUNTRIES });
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Countries' })).toBeVisible();
    expect(await screen.findByRole('cell', { name: 'United States of America' })).toBeVisible();
    expect(columnHeaders(table())).toEqual([
      'ID',
      'Country Name',
      'Alpha2 Code',
      'Alpha3 Code',
      'Sequence',
      'Valid From',
      'Valid To',
      'Risk',
      'Risk Date',
      'Actions',
    ]);
    const us = screen.getByRole('row', { name: /United States of America/ });
    const cells = within(us)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    const riskDate = new Date('2025-06-13T08:30:00.000Z');
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(cells.slice(0, 9)).toEqual([
      '840',
      'United States of America',
      'US',
      'USA',
      '1',
      'N/A',
      'N/A',
      'Low',
      `${riskDate.getFullYear()}-${pad(riskDate.getMonth() + 1)}-${pad(riskDate.getDate())} ${pad(riskDate.getHours())}:${pad(riskDate.getMinutes())}`,
    ]);
    expect(screen.getByText('page 1 of 1')).toBeVisible();
  });

  it('has the add button disabled, each row with edit disabled and delete enabled', async () => {
    mockApi({ 'GET /api/countries': COUNTRIES });
    renderPage();
    expect(screen.getByRole('button', { name: 'Add Country' })).toBeDisabled();
    expect(await screen.findByRole('button', { name: 'Edit Germany' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete Germany' })).toBeEnabled();
  });

  it('sorts by name as people do, and by ID', async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/countries': COUNTRIES });
    renderPage();
    await screen.findByRole('cell', { name: 'Germany' });
    expect(ids()).toEqual(['840', '276', '248']);
    await user.click(within(table()).getByRole('button', { name: /Country Name/ }));
    expect(ids()).toEqual(['248', '276', '840']);
    await user.click(within(table()).getByRole('button', { name: /Country Name/ }));
    expect(ids()).toEqual(['840', '276', '248']);
    await user.click(within(table()).getByRole('button', { name: /^ID/ }));
    expect(ids()).toEqual(['248', '276', '840']);
    // Missing values go last ascending (only the US has a risk).
    await user.click(within(table()).getByRole('button', { name: /^Risk$/ }));
    expect(ids()[0]).toBe('840');
  });

  it('pages with the size remembered under countriesPageSize', async () => {
    localStorage.setItem(PAGE_SIZE_KEYS.countries, '25');
    const many = Array.from({ length: 30 }, (_, index) =>
      country(index + 1, `Country ${index + 1}`, `A${index}`, `AA${index}`),
    );
    mockApi({ 'GET /api/countries': many });
    renderPage();
    expect(await screen.findByText('page 1 of 2')).toBeVisible();
    expect(ids()).toHaveLength(25);
  });

  it('shows the API error with Retry when the list does not load', async () => {
    mockApi({ 'GET /api/countries': jsonResponse({ message: 'down' }, 500) });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'API Error: API request to api/countries failed with status 500 (Status: 500)',
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeVisible();
  });

  it('says so when there is no country', async () => {
    mockApi({ 'GET /api/countries': [] });
    renderPage();
    expect(await screen.findByRole('cell', { name: 'No countries found.' })).toBeVisible();
  });

  it("'Import FATF data' leads to the FATF import", async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/countries': COUNTRIES });
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Import FATF data' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard/fatf-import');
  });

  it('imports a file, says how many were written and reloads the list', async () => {
    const user = userEvent.setup();
    const api = mockApi({
      'GET /api/countries': [germany],
      'POST /api/countries/import': { count: 2 },
    });
    renderPage();
    await screen.findByRole('cell', { name: 'Germany' });
    api.set('GET /api/countries', COUNTRIES);
    const records = [
      { id: 276, alpha2: 'DE', alpha3: 'DEU', name: 'Germany' },
      { id: 840, alpha2: 'US', alpha3: 'USA', name: 'United States of America' },
    ];
    await user.upload(
      screen.getByLabelText('Import Countries', { selector: 'input' }),
      new File([JSON.stringify(records)], 'countries.json', { type: 'application/json' }),
    );
    expect(await screen.findByText('Imported 2 countries')).toBeVisible();
    expect(api.callsTo('POST', '/api/countries/import')[0]?.body).toEqual(records);
    expect(await screen.findByRole('cell', { name: 'United States of America' })).toBeVisible();
  });
});

describe('deleting a country', () => {
  it('deletes after confirmation, says so and reloads the list', async () => {
    const user = userEvent.setup();
    const api = mockApi({
      'GET /api/countries': COUNTRIES,
      'DELETE /api/countries/276': new Response(null, { status: 204 }),
    });
    renderPage();
    await screen.findByRole('cell', { name: 'Germany' });
    api.set('GET /api/countries', [unitedStates, aland]);
    await deleteRow(user, 'Germany');
    expect(await screen.findByText('Country Germany deleted')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Germany' })).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.callsTo('DELETE', '/api/countries/276')).toHaveLength(1);
  });

  it('steps back a page when the last row of the page was deleted', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 11 }, (_, index) =>
      country(
        index + 1,
        `Country ${String(index + 1).padStart(2, '0')}`,
        `A${index}`,
        `AA${index}`,
      ),
    );
    const api = mockApi({
      'GET /api/countries': many,
      'DELETE /api/countries/11': new Response(null, { status: 204 }),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    expect(screen.getByText('page 2 of 2')).toBeVisible();
    api.set('GET /api/countries', many.slice(0, 10));
    await deleteRow(user, 'Country 11');
    expect(await screen.findByText('page 1 of 1')).toBeVisible();
    expect(ids()).toHaveLength(10);
  });

  it.each([
    [
      403,
      { message: 'Forbidden' },
      'Access denied. Admin privileges required to delete countries.',
    ],
    [404, { message: 'Country 276 not found.' }, 'Country Germany not found.'],
    [
      409,
      { message: 'in use', tenants: 2 },
      'Cannot delete country Germany because it is currently being used by existing tenants. Please reassign or remove the tenants first.',
    ],
    [
      500,
      { message: 'The database is not available' },
      'Failed to delete country: The database is not available',
    ],
    [
      502,
      null,
      'Failed to delete country: API request to api/countries/276 failed with status 502',
    ],
  ])('a %i answer says its message', async (status, body, message) => {
    const user = userEvent.setup();
    mockApi({
      'GET /api/countries': COUNTRIES,
      'DELETE /api/countries/276': () =>
        body === null ? new Response('Bad gateway', { status }) : jsonResponse(body, status),
    });
    renderPage();
    await deleteRow(user, 'Germany');
    expect(await screen.findByText(message)).toBeVisible();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('a 403 keeps the staff member signed in', async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /api/countries': COUNTRIES,
      'DELETE /api/countries/276': jsonResponse({ message: 'Forbidden' }, 403),
    });
    renderPage();
    await deleteRow(user, 'Germany');
    await screen.findByText('Access denied. Admin privileges required to delete countries.');
    expect(getAuthSession().isAuthenticated).toBe(true);
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard/countries');
  });

  it('Cancel deletes nothing', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/countries': COUNTRIES });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete Germany' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete country?' });
    expect(dialog).toHaveAccessibleDescription(
      'This permanently deletes Germany (276) from the countries.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([]);
  });
});
