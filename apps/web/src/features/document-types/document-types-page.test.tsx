import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DocumentType } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import { getAuthSession } from '@/lib/auth-session';
import DocumentTypesPage from '.';
import { setUpScreenTests } from '@/test/screen-tests';
import { columnHeaders, confirmDelete, itemTexts, type User } from '@/test/queries';

const passport: DocumentType = {
  id: 'passport',
  displayName: 'Passport (ICAO)',
  tags: ['identity', 'travel'],
  apiReferences: { onfido: 'passport', persona: 'pp' },
  sequence: 10,
  validFrom: null,
  validTo: null,
  validityPeriod: { years: 10 },
};
const healthCard: DocumentType = {
  id: 'health_card',
  displayName: 'Health insurance card',
  tags: ['health'],
  apiReferences: {},
  sequence: null,
  validFrom: null,
  validTo: null,
  validityPeriod: null,
};
const FORM = {
  id: 1,
  name: 'EditIndividualId_healthcard',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

function routes(overrides = {}) {
  return {
    'GET /api/documenttypes': [passport, healthCard],
    'GET /svc/formauthoring/list': [FORM],
    'GET /api/documenttypes/used-tags': ['health', 'identity', 'travel'],
    'GET /api/documenttypes/used-api-service-names': ['onfido', 'persona'],
    ...overrides,
  };
}

function renderPage() {
  return renderScreen(<DocumentTypesPage />, { path: '/dashboard/document-types' });
}

const row = (name: RegExp) => screen.getByRole('row', { name });

const deleteRow = (user: User, id: string) => confirmDelete(user, id, 'Delete document type?');

setUpScreenTests(STAFF_USER);

describe('document types screen', () => {
  it('shows the columns, tags as badges and API references as service: value', async () => {
    mockApi(routes());
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Document Types' })).toBeVisible();
    await screen.findByRole('cell', { name: 'Health insurance card' });
    const table = screen.getByRole('table', { name: 'Document Types' });
    expect(columnHeaders(table)).toEqual([
      'ID',
      'Display Name',
      'Tags',
      'API References',
      'Sequence',
      'Valid From',
      'Valid To',
      'Actions',
    ]);
    const cells = within(row(/^passport/)).getAllByRole('cell');
    expect(itemTexts(cells[2]!)).toEqual(['identity', 'travel']);
    expect(itemTexts(cells[3]!)).toEqual(['onfido: passport', 'persona: pp']);
    expect(cells[4]).toHaveTextContent('10');
    expect(cells[5]).toHaveTextContent('N/A');
    expect(within(row(/^health_card/)).getAllByRole('cell')[4]).toHaveTextContent('N/A');
  });

  it('uses the translated label documentType.{id} for the name when there is one', async () => {
    mockApi(routes());
    renderPage();
    // en.json has documentType.passport ('Passport'); health_card has no label.
    expect(await screen.findByRole('cell', { name: 'Passport' })).toBeVisible();
    expect(screen.queryByRole('cell', { name: 'Passport (ICAO)' })).toBeNull();
    expect(screen.getByRole('cell', { name: 'Health insurance card' })).toBeVisible();
  });

  it('highlights the ID of a type whose expected form is missing, with a tooltip', async () => {
    const user = userEvent.setup();
    mockApi(routes());
    renderPage();
    await screen.findByRole('cell', { name: 'Health insurance card' });
    const missing = within(row(/^passport/)).getByText('passport');
    expect(missing).toHaveClass('bg-yellow-100');
    expect(missing).toHaveTextContent(
      'passport, Expected form EditIndividualId_passport is missing',
    );
    const present = within(row(/^health_card/)).getByText('health_card');
    expect(present).not.toHaveClass('bg-yellow-100');

    await user.hover(missing);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Expected form EditIndividualId_passport is missing',
    );
  });

  it('finds the expected form whatever the letter case of its name (form names ignore case)', async () => {
    mockApi(
      routes({ 'GET /svc/formauthoring/list': [{ ...FORM, name: 'EDITINDIVIDUALID_PASSPORT' }] }),
    );
    renderPage();
    await screen.findByRole('cell', { name: 'Health insurance card' });
    expect(within(row(/^passport/)).getByText('passport')).not.toHaveClass('bg-yellow-100');
    expect(within(row(/^health_card/)).getByText('health_card')).toHaveClass('bg-yellow-100');
  });

  it('flags nothing while the forms are unknown', async () => {
    mockApi(routes({ 'GET /svc/formauthoring/list': jsonResponse({ message: 'down' }, 500) }));
    renderPage();
    await screen.findByRole('cell', { name: 'Health insurance card' });
    expect(within(row(/^passport/)).getByText('passport')).not.toHaveClass('bg-yellow-100');
  });

  it('sorts by sequence with a missing one last, then by display name', async () => {
    const user = userEvent.setup();
    mockApi(routes({ 'GET /api/documenttypes': [healthCard, passport] }));
    renderPage();
    await screen.findByRole('cell', { name: 'Passport' });
    const table = screen.getByRole('table', { name: 'Document Types' });
    const firstId = () => within(table).getAllByRole('row')[1]!.textContent;
    expect(firstId()).toMatch(/^health_card/);
    await user.click(within(table).getByRole('button', { name: /Sequence/ }));
    expect(firstId()).toMatch(/^passport/);
    await user.click(within(table).getByRole('button', { name: /Display Name/ }));
    expect(firstId()).toMatch(/^health_card/);
    await user.click(within(table).getByRole('button', { name: /Display Name/ }));
    expect(firstId()).toMatch(/^passport/);
  });

  it('opens the dialog to add, and to edit a row', async () => {
    const user = userEvent.setup();
    mockApi(routes());
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Add Document Type' }));
    const add = await screen.findByRole('dialog', { name: 'Add Document Type' });
    expect(within(add).getByRole('textbox', { name: 'ID' })).toHaveValue('');
    await user.click(within(add).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(await screen.findByRole('button', { name: 'Edit health_card' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Document Type' });
    expect(within(edit).getByRole('textbox', { name: 'ID' })).toHaveValue('health_card');
    expect(within(edit).getByRole('textbox', { name: 'Display Name' })).toHaveValue(
      'Health insurance card',
    );
  });

  it('imports a file and says how many were written', async () => {
    const user = userEvent.setup();
    const api = mockApi(routes({ 'POST /api/documenttypes/import': { count: 1 } }));
    renderPage();
    const records = [{ id: 'visa', displayName: 'Visa', tags: [], apiReferences: {} }];
    await user.upload(
      screen.getByLabelText('Import Document Types', { selector: 'input' }),
      new File([JSON.stringify(records)], 'types.json', { type: 'application/json' }),
    );
    expect(await screen.findByText('Imported 1 document type')).toBeVisible();
    expect(api.callsTo('POST', '/api/documenttypes/import')[0]?.body).toEqual(records);
  });
});

describe('deleting a document type', () => {
  it('deletes after confirmation, says so and reloads the list', async () => {
    const user = userEvent.setup();
    const api = mockApi(
      routes({ 'DELETE /api/documenttypes/health_card': new Response(null, { status: 204 }) }),
    );
    renderPage();
    await screen.findByRole('cell', { name: 'Health insurance card' });
    api.set('GET /api/documenttypes', [passport]);
    await deleteRow(user, 'health_card');
    expect(await screen.findByText('Document type health_card deleted')).toBeVisible();
    await waitFor(() =>
      expect(screen.queryByRole('cell', { name: 'Health insurance card' })).toBeNull(),
    );
  });

  it.each([
    [
      403,
      { message: 'Forbidden' },
      'Access denied. Admin privileges required to delete document types.',
    ],
    [404, { message: 'gone' }, 'Document type health_card not found.'],
    [
      409,
      { message: 'in use' },
      'Cannot delete document type health_card because it is currently being used. Please remove references first.',
    ],
    [
      500,
      { message: 'The database is not available' },
      'Failed to delete document type: The database is not available',
    ],
  ])('a %i answer says its message', async (status, body, message) => {
    const user = userEvent.setup();
    mockApi(routes({ 'DELETE /api/documenttypes/health_card': jsonResponse(body, status) }));
    renderPage();
    await deleteRow(user, 'health_card');
    expect(await screen.findByText(message)).toBeVisible();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(getAuthSession().isAuthenticated).toBe(true);
  });
});
