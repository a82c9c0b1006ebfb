import { aFormField } from '@console/contracts/testing';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STAFF_USER, signOut } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen, type ApiCall } from '@/app/testing/screen';
import { columnHeaders, confirmDelete, itemTexts, type User } from '@/test/queries';
import { setUpScreenTests } from '@/test/screen-tests';
import FormFieldsPage from '.';
import { CREATE_PATH, fieldPath, fieldRoutes, savedField } from './testing';

const firstName = aFormField({
  name: 'FirstName',
  displayName: 'First name',
  uiGroup: 'Personal',
  order: 1,
  tags: ['identity', 'kyc'],
  apiReferences: { persona: 'first', onfido: 'first_name' },
});
const lastName = aFormField({
  name: 'LastName',
  displayName: 'last name',
  uiGroup: 'Personal',
  order: 2,
});
const nickname = aFormField({ name: 'Nickname', displayName: 'Nickname', uiGroup: 'Personal' });
const alias = aFormField({ name: 'Alias', displayName: 'alias', uiGroup: 'Personal' });
const country = aFormField({
  name: 'Nationality',
  displayName: 'Nationality',
  type: 'Country',
  uiGroup: 'Address',
  order: 5,
  section: 'Origin',
});
const FIELDS = [nickname, firstName, country, lastName, alias];

function renderPage(routes = {}) {
  const api = mockApi({ ...fieldRoutes(FIELDS), ...routes });
  renderScreen(<FormFieldsPage />, { path: '/dashboard/form-fields' });
  return api;
}

const table = () => screen.getByRole('table', { name: 'Form Fields' });
const storageNames = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[3]!.textContent);
const row = (storageName: string) =>
  within(table())
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryAllByRole('cell')[3]?.textContent === storageName)!;
const deleteField = (user: User, name: string) => confirmDelete(user, name, 'Delete form field?');

setUpScreenTests(STAFF_USER);

describe('form fields list', () => {
  it("shows the spec's columns, in the order UI group, order (missing last), display name", async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Form Fields' })).toBeVisible();
    await screen.findByRole('cell', { name: 'FirstName' });
    expect(columnHeaders(table())).toEqual([
      'UI Group',
      'Order',
      'Display Name',
      'Storage Name',
      'Type',
      'Section',
      'Tags',
      'API References',
      'Actions',
    ]);
    expect(storageNames()).toEqual(['Nationality', 'FirstName', 'LastName', 'Alias', 'Nickname']);
    // The list keeps that order: no header sorts it.
    expect(within(table()).queryAllByRole('button', { name: /Display Name/ })).toEqual([]);
  });

  it("shows Country as 'Country Selector', tags as badges, API references by service", async () => {
    renderPage();
    await screen.findByRole('cell', { name: 'FirstName' });
    const nationality = within(row('Nationality')).getAllByRole('cell');
    expect(nationality.map((cell) => cell.textContent).slice(0, 6)).toEqual([
      'Address',
      '5',
      'Nationality',
      'Nationality',
      'Country Selector',
      'Origin',
    ]);
    const first = within(row('FirstName')).getAllByRole('cell');
    expect(itemTexts(first[6]!)).toEqual(['identity', 'kyc']);
    expect(itemTexts(first[7]!)).toEqual(['onfido: first_name', 'persona: first']);
    expect(within(row('FirstName')).getByRole('button', { name: 'Edit FirstName' })).toBeVisible();
    expect(within(row('FirstName')).getByRole('button', { name: 'Clone FirstName' })).toBeVisible();
    expect(
      within(row('FirstName')).getByRole('button', { name: 'Delete FirstName' }),
    ).toBeVisible();
  });

  it("says 'No form fields found.' when the catalogue is empty", async () => {
    mockApi(fieldRoutes([]));
    renderScreen(<FormFieldsPage />);
    expect(await screen.findByText('No form fields found.')).toBeVisible();
  });

  it("says 'Failed to fetch form fields: {status}' when the list does not load, and retries", async () => {
    const user = userEvent.setup();
    const api = renderPage({
      'GET /svc/formauthoring/allfields': jsonResponse({ message: 'down' }, 503),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch form fields: 503');
    api.set('GET /svc/formauthoring/allfields', FIELDS);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('cell', { name: 'FirstName' })).toBeVisible();
  });

  it("says 'Authentication token not found.' and calls nothing without a token", async () => {
    const api = mockApi(fieldRoutes(FIELDS));
    signOut();
    renderScreen(<FormFieldsPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Authentication token not found.');
    expect(api.calls.filter((call) => call.path.startsWith('/svc/'))).toEqual([]);
  });
});

describe('deleting a form field', () => {
  it('deletes after the confirmation, says so and reloads the list', async () => {
    const user = userEvent.setup();
    const api = renderPage({
      [`DELETE ${fieldPath(alias)}`]: new Response(null, { status: 204 }),
    });
    await screen.findByRole('cell', { name: 'Alias' });
    api.set(
      'GET /svc/formauthoring/allfields',
      FIELDS.filter((field) => field !== alias),
    );
    await user.click(screen.getByRole('button', { name: 'Delete Alias' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete form field?' });
    expect(confirm).toHaveTextContent('This permanently deletes the form field alias (Alias).');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Form field deleted successfully')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Alias' })).toBeNull());
    expect(api.callsTo('DELETE', fieldPath(alias))).toHaveLength(1);
  });

  it('deletes nothing when the confirmation is cancelled', async () => {
    const user = userEvent.setup();
    const api = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete Alias' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete form field?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([]);
  });

  it("says 'Failed to delete form field: {status}' with the server's reason", async () => {
    const user = userEvent.setup();
    renderPage({
      [`DELETE ${fieldPath(alias)}`]: jsonResponse({ message: 'Alias is used by 2 forms.' }, 409),
    });
    await deleteField(user, 'Alias');
    expect(await screen.findByText('Failed to delete form field: 409')).toBeVisible();
    expect(screen.getByText('Alias is used by 2 forms.')).toBeVisible();
    expect(screen.getByRole('cell', { name: 'Alias' })).toBeVisible();
  });

  it("says 'Authentication token not found.' when the token is gone", async () => {
    const user = userEvent.setup();
    const api = renderPage();
    await screen.findByRole('cell', { name: 'Alias' });
    signOut();
    await deleteField(user, 'Alias');
    expect(await screen.findByText('Authentication token not found.')).toBeVisible();
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([]);
  });
});

describe('the field dialog from the list', () => {
  it('creates a field and shows it in the list', async () => {
    const user = userEvent.setup();
    const created = aFormField({
      name: 'MiddleName',
      displayName: 'Middle name',
      uiGroup: 'Personal',
    });
    const api = renderPage({ [`POST ${CREATE_PATH}`]: jsonResponse(created, 201) });
    await user.click(await screen.findByRole('button', { name: 'Create New Field' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Form Field' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Storage Name' }), 'MiddleName');
    await user.type(within(dialog).getByRole('textbox', { name: 'Display Name' }), 'Middle name');
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Text' }));
    api.set('GET /svc/formauthoring/allfields', [...FIELDS, created]);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Form field created successfully')).toBeVisible();
    expect(await screen.findByRole('cell', { name: 'MiddleName' })).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens a row to edit it, and a clone of it with a new name', async () => {
    const user = userEvent.setup();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 4, 5, 6, 7));
    try {
      const api = renderPage({
        [`POST ${CREATE_PATH}`]: (call: ApiCall) => jsonResponse(savedField(call), 201),
      });
      await user.click(await screen.findByRole('button', { name: 'Edit FirstName' }));
      const edit = await screen.findByRole('dialog', { name: 'Edit Form Field' });
      expect(within(edit).getByRole('textbox', { name: 'Storage Name' })).toHaveValue('FirstName');
      await user.click(within(edit).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

      await user.click(screen.getByRole('button', { name: 'Clone FirstName' }));
      const clone = await screen.findByRole('dialog', { name: 'Clone Form Field' });
      expect(within(clone).getByRole('textbox', { name: 'Storage Name' })).toHaveValue(
        'FirstName_20250304_050607',
      );
      expect(within(clone).getByRole('textbox', { name: 'Display Name' })).toHaveValue(
        'First name (Clone)',
      );
      await user.click(within(clone).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Form field cloned successfully')).toBeVisible();
      const body = api.callsTo('POST', CREATE_PATH)[0]?.body as Record<string, unknown>;
      expect(body).not.toHaveProperty('id');
      expect(body).toMatchObject({
        name: 'FirstName_20250304_050607',
        displayName: 'First name (Clone)',
        uiGroup: 'Personal',
        order: 1,
        tags: ['identity', 'kyc'],
        apiReferences: { onfido: 'first_name', persona: 'first' },
      });
    } finally {
      vi.useRealTimers();
    }
  });
});
