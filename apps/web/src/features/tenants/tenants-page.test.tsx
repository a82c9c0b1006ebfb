import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Tenant } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import TenantsPage from '.';
import { setUpScreenTests } from '@/test/screen-tests';
import { groupHtml, htmlResponse } from '@/test/dynamic-forms';
import { country } from '@/test/reference-data';
import {
  chooseOption,
  columnHeaders,
  confirmDelete,
  itemTexts,
  openDialog,
  save,
  saveExpectingRequiredFieldsAlert,
  typeInto,
} from '@/test/queries';
import type { Fill, User } from '@/test/queries';

function tenant(
  id: number,
  companyName: string,
  [domicileCountryId, domicileCountryName]: [number, string],
  namespaces: string[],
): Tenant {
  return { id, companyName, domicileCountryId, domicileCountryName, namespaces };
}
const acme = tenant(1, 'Acme Corporation', [840, 'United States of America'], ['acme']);
const globex = tenant(2, 'Globex Limited', [826, 'United Kingdom'], ['globex', 'globexlimited']);

const COUNTRIES = [
  country(840, 'United States of America'),
  country(826, 'United Kingdom'),
  country(276, 'Germany'),
];

function routes(overrides = {}) {
  return {
    'GET /api/tenants': [acme, globex],
    'GET /api/countries': COUNTRIES,
    ...overrides,
  };
}

function renderPage() {
  return renderScreen(<TenantsPage />, { path: '/dashboard/tenants' });
}

/** Renders the screen against `routes(overrides)` and opens its Add Tenant dialog. */
async function openAddDialog(user: User, overrides = {}) {
  const api = mockApi(routes(overrides));
  renderPage();
  return { api, dialog: await openDialog(user, 'Add Tenant') };
}

const chooseCountry = (user: User, dialog: HTMLElement, name: string) =>
  chooseOption(user, dialog, 'Domicile Country', name);

setUpScreenTests(STAFF_USER);

describe('tenants screen', () => {
  it('shows ID, company name, domicile country and actions, sortable', async () => {
    const user = userEvent.setup();
    mockApi(routes());
    renderPage();
    await screen.findByRole('cell', { name: 'Globex Limited' });
    const table = screen.getByRole('table', { name: 'Tenants' });
    expect(columnHeaders(table)).toEqual(['ID', 'Company Name', 'Domicile Country', 'Actions']);
    const firstName = () => within(within(table).getAllByRole('row')[1]!).getAllByRole('cell')[1];
    expect(firstName()).toHaveTextContent('Acme Corporation');
    await user.click(within(table).getByRole('button', { name: /Domicile Country/ }));
    expect(firstName()).toHaveTextContent('Globex Limited');
    expect(screen.getByText('page 1 of 1')).toBeVisible();
    // Each row's actions: its profile, edit and delete.
    const actions = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell')[3]!;
    expect(
      within(actions)
        .getAllByRole('button')
        .map((button) => button.ariaLabel),
    ).toEqual(['Profile of Globex Limited', 'Edit Globex Limited', 'Delete Globex Limited']);
  });

  it('opens the tenant’s profile dialog (form EditTenantProfile) from its Profile button, with the keyboard too', async () => {
    const user = userEvent.setup();
    const api = mockApi(
      routes({
        'GET /svc/formusage/tenant/2': {
          target: 'Tenant',
          tenantId: 2,
          partyEntityId: null,
          formName: 'EditTenantProfile',
          formExists: true,
          groups: ['Company'],
          metadata: { LegalName: 'Globex Limited plc' },
          updatedAt: null,
          updatedBy: null,
        },
        'GET /svc/formusage/Company/fieldgroup': () =>
          htmlResponse(groupHtml('Company', [{ name: 'LegalName', label: 'Legal name' }])),
        'GET /api/documenttypes': [],
      }),
    );
    renderPage();
    const profile = await screen.findByRole('button', { name: 'Profile of Globex Limited' });
    expect(profile).toHaveTextContent('Profile');
    profile.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Tenant profile: Globex Limited' });
    expect(await within(dialog).findByRole('textbox', { name: 'Legal name' })).toHaveValue(
      'Globex Limited plc',
    );
    expect(api.callsTo('GET', '/svc/formusage/tenant/2')).toHaveLength(1);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(profile).toHaveFocus();
  });

  it.each<[string, Fill]>([
    ['nothing', async () => {}],
    ['only a company name', (user, dialog) => typeInto(user, dialog, 'Company Name', 'Initech')],
    ['only a country', (user, dialog) => chooseCountry(user, dialog, 'Germany')],
    [
      'a blank company name',
      async (user, dialog) => {
        await typeInto(user, dialog, 'Company Name', '   ');
        await chooseCountry(user, dialog, 'Germany');
      },
    ],
  ])('saving with %s shows the required-fields alert and sends nothing', async (_, fill) => {
    const user = userEvent.setup();
    const { api, dialog } = await openAddDialog(user);
    await fill(user, dialog);
    await saveExpectingRequiredFieldsAlert(user, dialog, api, '/api/tenants');
    expect(screen.getByRole('dialog', { name: 'Add Tenant' })).toBeVisible();
  });

  it('adds a tenant with its namespaces trimmed, each once, and the typed one included', async () => {
    const user = userEvent.setup();
    const created = tenant(3, 'Initech', [276, 'Germany'], ['initech', 'tps']);
    const { api, dialog } = await openAddDialog(user, {
      'POST /api/tenants': jsonResponse(created, 201),
    });
    expect(
      within(dialog).getByText(
        'Optional. Without a namespace, one is generated from the company name when you save.',
      ),
    ).toBeVisible();
    await typeInto(user, dialog, 'Company Name', ' Initech ');
    await chooseCountry(user, dialog, 'Germany');

    const namespace = within(dialog).getByRole('textbox', { name: 'Namespaces' });
    await user.type(namespace, '  initech  {Enter}');
    await user.type(namespace, 'old');
    await user.click(within(dialog).getByRole('button', { name: 'Add namespace' }));
    await user.type(namespace, 'initech{Enter}');
    expect(within(dialog).getByText('The namespace initech is already in the list.')).toBeVisible();
    const list = within(dialog).getByRole('list', { name: 'Namespaces' });
    expect(itemTexts(list)).toEqual(['initech', 'old']);
    await user.clear(namespace);
    await user.click(within(dialog).getByRole('button', { name: 'Remove namespace old' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    // Typed but not added: saving keeps it rather than dropping it.
    await user.type(namespace, ' tps ');

    api.set('GET /api/tenants', [acme, globex, created]);
    await save(user, dialog);
    expect(await screen.findByText('Tenant Initech created')).toBeVisible();
    expect(api.callsTo('POST', '/api/tenants')[0]?.body).toEqual({
      companyName: 'Initech',
      domicileCountryId: 276,
      namespaces: ['initech', 'tps'],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('cell', { name: 'Initech' })).toBeVisible();
  });

  it('sends no namespace when none is given: the server generates one', async () => {
    const user = userEvent.setup();
    const { api, dialog } = await openAddDialog(user, {
      'POST /api/tenants': jsonResponse(
        { ...acme, id: 9, companyName: 'Hooli', namespaces: ['hoolins12'] },
        201,
      ),
    });
    await typeInto(user, dialog, 'Company Name', 'Hooli');
    await chooseCountry(user, dialog, 'United Kingdom');
    await save(user, dialog);
    await screen.findByText('Tenant Hooli created');
    expect(api.callsTo('POST', '/api/tenants')[0]?.body).toEqual({
      companyName: 'Hooli',
      domicileCountryId: 826,
      namespaces: [],
    });
  });

  it('edits a tenant in the same dialog, prefilled, with PUT', async () => {
    const user = userEvent.setup();
    const api = mockApi(
      routes({ 'PUT /api/tenants/2': { ...globex, companyName: 'Globex Group' } }),
    );
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Edit Globex Limited' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Tenant' });
    const name = within(dialog).getByRole('textbox', { name: 'Company Name' });
    expect(name).toHaveValue('Globex Limited');
    expect(within(dialog).getByRole('combobox', { name: 'Domicile Country' })).toHaveTextContent(
      'United Kingdom',
    );
    expect(itemTexts(within(dialog).getByRole('list', { name: 'Namespaces' }))).toEqual([
      'globex',
      'globexlimited',
    ]);
    await user.clear(name);
    await user.type(name, 'Globex Group');
    await user.click(within(dialog).getByRole('button', { name: 'Remove namespace globex' }));
    await save(user, dialog);
    expect(await screen.findByText('Tenant Globex Group updated')).toBeVisible();
    expect(api.callsTo('PUT', '/api/tenants/2')[0]?.body).toEqual({
      companyName: 'Globex Group',
      domicileCountryId: 826,
      namespaces: ['globexlimited'],
    });
  });

  it.each([
    [400, 'Country 276 does not exist.'],
    [409, 'The namespace acme is already used by tenant Acme Corporation.'],
  ])(
    'shows the message of a %i answer in the dialog, which stays open',
    async (status, message) => {
      const user = userEvent.setup();
      const { dialog } = await openAddDialog(user, {
        'POST /api/tenants': jsonResponse({ message }, status),
      });
      await typeInto(user, dialog, 'Company Name', 'Initech');
      await chooseCountry(user, dialog, 'Germany');
      await save(user, dialog);
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
      expect(within(dialog).getByRole('textbox', { name: 'Company Name' })).toHaveValue('Initech');
    },
  );
});

describe('deleting a tenant', () => {
  const deleteRow = (user: User, name: string) => confirmDelete(user, name, 'Delete tenant?');

  it('deletes after confirmation and reloads the list', async () => {
    const user = userEvent.setup();
    const api = mockApi(routes({ 'DELETE /api/tenants/2': new Response(null, { status: 204 }) }));
    renderPage();
    await screen.findByRole('cell', { name: 'Globex Limited' });
    api.set('GET /api/tenants', [acme]);
    await deleteRow(user, 'Globex Limited');
    expect(await screen.findByText('Tenant Globex Limited deleted')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Globex Limited' })).toBeNull());
  });

  it('shows the reason of a 409 (users or entities still belong to it)', async () => {
    const user = userEvent.setup();
    const message =
      'Cannot delete tenant Acme Corporation because it still has 1 tenant user, 32 entities and 58 entity users. Remove them first.';
    mockApi(routes({ 'DELETE /api/tenants/1': jsonResponse({ message }, 409) }));
    renderPage();
    await deleteRow(user, 'Acme Corporation');
    expect(await screen.findByText(message)).toBeVisible();
    expect(screen.getByRole('cell', { name: 'Acme Corporation' })).toBeVisible();
  });

  it('says why any other failure happened', async () => {
    const user = userEvent.setup();
    mockApi(routes({ 'DELETE /api/tenants/1': jsonResponse({ message: 'Database down' }, 500) }));
    renderPage();
    await deleteRow(user, 'Acme Corporation');
    expect(await screen.findByText('Failed to delete tenant: Database down')).toBeVisible();
  });
});
