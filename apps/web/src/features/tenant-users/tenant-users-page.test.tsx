import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Tenant, TenantUser } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import TenantUsersPage from '.';
import { setUpScreenTests } from '@/test/screen-tests';
import {
  chooseOption,
  columnHeaders,
  openDialog,
  save,
  saveExpectingRequiredFieldsAlert,
  typeInto,
} from '@/test/queries';
import type { Fill, User } from '@/test/queries';

const acme: Tenant = {
  id: 1,
  companyName: 'Acme Corporation',
  domicileCountryId: 840,
  domicileCountryName: 'United States of America',
  namespaces: ['acme'],
};
const globex: Tenant = { ...acme, id: 2, companyName: 'Globex Limited', namespaces: ['globex'] };
const pat: TenantUser = {
  id: 1,
  email: 'portal@acme.example',
  tenantId: 1,
  tenantCompanyName: 'Acme Corporation',
};
const gus: TenantUser = {
  id: 2,
  email: 'portal@globex.example',
  tenantId: 2,
  tenantCompanyName: 'Globex Limited',
};

function routes(overrides = {}) {
  return { 'GET /api/tenantusers': [pat, gus], 'GET /api/tenants': [globex, acme], ...overrides };
}

const chooseTenant = (user: User, dialog: HTMLElement, name: string) =>
  chooseOption(user, dialog, 'Tenant', name);

/** Renders the screen against `routes(overrides)` and opens its Add Tenant User dialog. */
async function openAddDialog(user: User, overrides = {}) {
  const api = mockApi(routes(overrides));
  renderPage();
  return { api, dialog: await openDialog(user, 'Add Tenant User') };
}

function renderPage() {
  return renderScreen(<TenantUsersPage />, { path: '/dashboard/tenant-users' });
}

setUpScreenTests(STAFF_USER);

describe('tenant users screen', () => {
  it('shows ID, email, tenant company name and actions', async () => {
    mockApi(routes());
    renderPage();
    await screen.findByRole('cell', { name: 'portal@globex.example' });
    const table = screen.getByRole('table', { name: 'Tenant Users' });
    expect(columnHeaders(table)).toEqual(['ID', 'Email', 'Tenant', 'Actions']);
    expect(screen.getByRole('cell', { name: 'Globex Limited' })).toBeVisible();
  });

  it.each<[string, Fill]>([
    ['nothing', async () => {}],
    ['only an email', async (user, dialog) => typeInto(user, dialog, 'Email', 'new@acme.example')],
    ['only a tenant', async (user, dialog) => chooseTenant(user, dialog, 'Acme Corporation')],
  ])('saving with %s shows the required-fields alert and sends nothing', async (_, fill) => {
    const user = userEvent.setup();
    const { api, dialog } = await openAddDialog(user);
    await fill(user, dialog);
    await saveExpectingRequiredFieldsAlert(user, dialog, api, '/api/tenantusers');
  });

  it('refuses a malformed email under the field', async () => {
    const user = userEvent.setup();
    const { api, dialog } = await openAddDialog(user);
    await typeInto(user, dialog, 'Email', 'not-an-email');
    await chooseTenant(user, dialog, 'Acme Corporation');
    await save(user, dialog);
    expect(await within(dialog).findByText('Enter a valid email address')).toBeVisible();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(api.callsTo('POST', '/api/tenantusers')).toHaveLength(0);
  });

  it('adds a tenant user with the tenants to choose from, sorted by name', async () => {
    const user = userEvent.setup();
    const created: TenantUser = {
      id: 3,
      email: 'new@acme.example',
      tenantId: 1,
      tenantCompanyName: 'Acme Corporation',
    };
    const { api, dialog } = await openAddDialog(user, {
      'POST /api/tenantusers': jsonResponse(created, 201),
    });
    await typeInto(user, dialog, 'Email', ' New@Acme.example ');
    await user.click(within(dialog).getByRole('combobox', { name: 'Tenant' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Acme Corporation',
      'Globex Limited',
    ]);
    await user.click(screen.getByRole('option', { name: 'Acme Corporation' }));
    api.set('GET /api/tenantusers', [pat, gus, created]);
    await save(user, dialog);
    expect(await screen.findByText('Tenant user new@acme.example added')).toBeVisible();
    expect(api.callsTo('POST', '/api/tenantusers')[0]?.body).toEqual({
      email: 'new@acme.example',
      tenantId: 1,
    });
    expect(await screen.findByRole('cell', { name: 'new@acme.example' })).toBeVisible();
  });

  it('shows the 409 of an email already registered, in the dialog', async () => {
    const user = userEvent.setup();
    const message = 'The email portal@acme.example is already registered as a tenant user.';
    const { dialog } = await openAddDialog(user, {
      'POST /api/tenantusers': jsonResponse({ message }, 409),
    });
    await typeInto(user, dialog, 'Email', 'portal@acme.example');
    await chooseTenant(user, dialog, 'Globex Limited');
    await save(user, dialog);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
  });

  it('removes a tenant user after confirmation', async () => {
    const user = userEvent.setup();
    const api = mockApi(
      routes({ 'DELETE /api/tenantusers/2': new Response(null, { status: 204 }) }),
    );
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete portal@globex.example' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove tenant user?' });
    expect(dialog).toHaveTextContent(
      'portal@globex.example will no longer be able to sign in to the tenant portal.',
    );
    api.set('GET /api/tenantusers', [pat]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Tenant user portal@globex.example removed')).toBeVisible();
    await waitFor(() =>
      expect(screen.queryByRole('cell', { name: 'portal@globex.example' })).toBeNull(),
    );
  });
});
