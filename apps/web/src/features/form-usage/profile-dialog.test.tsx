import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PROFILE_SAVED_MESSAGE, type Entity, type Profile, type Tenant } from '@console/contracts';
import { STAFF_USER, TENANT_USER, signInAs, signOut } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen, type ApiRoute } from '@/app/testing/screen';
import { saveFile } from '@/lib/download';
import { setUpScreenTests } from '@/test/screen-tests';
import {
  CHOICE_ROUTES,
  groupHtml,
  htmlResponse,
  REFERENCE_ROUTES,
  type TestField,
} from '@/test/dynamic-forms';
import type { User } from '@/test/queries';
import { EntityProfileDialog, TenantProfileDialog } from './profile-dialog';

vi.mock('@/lib/download', () => ({ saveFile: vi.fn() }));

const ACME: Tenant = {
  id: 1,
  companyName: 'Acme Corporation',
  domicileCountryId: 840,
  domicileCountryName: 'United States of America',
  namespaces: ['acme'],
};
const ENTITY_ID = '00000000-0000-4000-8000-000000000001';
const ENTITY: Entity = {
  partyEntityId: ENTITY_ID,
  tenantId: 1,
  tenantName: 'Acme Corporation',
  names: { names: { entityName: 'Acme Holdings' } },
  country: 'US',
  displayName: 'Acme Holdings',
};

const COMPANY: TestField[] = [
  { name: 'LegalName', label: 'Legal name', required: true },
  { name: 'Country', label: 'Country of registration', type: 'Country' },
  { name: 'Regulated', label: 'Regulated', type: 'Checkbox', span: 12 },
  { name: 'Reviewer', label: 'Reviewer', disabled: true },
];
const DOCUMENTS: TestField[] = [
  { name: 'Certificate', label: 'Certificate of incorporation', type: 'FileUpload' },
  { name: 'Notes', label: 'Notes', note: 'Anything the reviewer should know.' },
];

function profile(overrides: Partial<Profile> = {}): Profile {
  return {
    target: 'Tenant',
    tenantId: 1,
    partyEntityId: null,
    formName: 'EditTenantProfile',
    formExists: true,
    groups: ['Company', 'Documents'],
    metadata: {
      LegalName: 'Acme Corporation Inc.',
      Country: '826',
      Regulated: 'true',
      Reviewer: 'ada@example.com',
      Certificate: 'certificate.pdf',
    },
    updatedAt: NOW,
    updatedBy: 'ada@example.com',
    ...overrides,
  };
}
const NOW = '2026-01-01T00:00:00.000Z';

const SUBMIT = 'POST /svc/formusage/submit';

function routes(overrides: Record<string, ApiRoute> = {}): Record<string, ApiRoute> {
  return {
    ...REFERENCE_ROUTES,
    'GET /svc/formusage/tenant/1': profile(),
    'GET /svc/formusage/Company/fieldgroup': () =>
      htmlResponse(groupHtml('Company', COMPANY, { summary: true })),
    'GET /svc/formusage/Documents/fieldgroup': () =>
      htmlResponse(groupHtml('Documents', DOCUMENTS, { summary: true })),
    [SUBMIT]: { message: PROFILE_SAVED_MESSAGE, submittedData: {} },
    ...overrides,
  };
}

/** Opens the profile dialog of Acme and waits for its groups. */
async function openTenantProfile(overrides: Record<string, ApiRoute> = {}) {
  const api = mockApi(routes(overrides));
  const onOpenChange = vi.fn();
  renderScreen(<TenantProfileDialog open onOpenChange={onOpenChange} tenant={ACME} />);
  const dialog = await screen.findByRole('dialog', {
    name: 'Tenant profile: Acme Corporation',
  });
  return { api, dialog, onOpenChange };
}

const groupsShown = (dialog: HTMLElement) =>
  within(dialog).findByRole('group', { name: 'Documents' });

const save = (user: User, dialog: HTMLElement) =>
  user.click(within(dialog).getByRole('button', { name: 'Save' }));

/** The parts of the multipart body of the one profile submission. */
function submittedParts(api: ReturnType<typeof mockApi>): FormData {
  const calls = api.spy.mock.calls.filter(
    ([input, init]) =>
      init?.method === 'POST' && new URL(String(input)).pathname === '/svc/formusage/submit',
  );
  expect(calls).toHaveLength(1);
  const body = calls[0]![1]!.body;
  expect(body).toBeInstanceOf(FormData);
  return body as FormData;
}

setUpScreenTests(STAFF_USER);

describe('tenant profile dialog', () => {
  it('renders the profile form’s groups pre-filled with the stored values', async () => {
    const { api, dialog } = await openTenantProfile();
    await groupsShown(dialog);
    expect(within(dialog).getByText('The profile is edited with the form EditTenantProfile.'));
    expect(within(dialog).getByRole('textbox', { name: /Legal name/ })).toHaveValue(
      'Acme Corporation Inc.',
    );
    expect(within(dialog).getByRole('checkbox', { name: 'Regulated' })).toBeChecked();
    expect(within(dialog).getByRole('textbox', { name: 'Reviewer' })).toHaveValue(
      'ada@example.com',
    );
    const country = within(dialog).getByRole('combobox', { name: 'Country of registration' });
    await waitFor(() => expect(country).toHaveDisplayValue('United Kingdom'));
    expect(within(dialog).getByRole('textbox', { name: 'Notes' })).toHaveValue('');
    // The groups of the form were asked for, with the form's name and the summary block.
    const groupQueries = api.spy.mock.calls
      .map(([input]) => new URL(String(input)))
      .filter((url) => url.pathname.endsWith('/fieldgroup'))
      .map((url) => `${url.pathname}${url.search}`);
    expect(groupQueries.sort()).toEqual([
      '/svc/formusage/Company/fieldgroup?form=EditTenantProfile&hasEditPermission=true&showValidationSummary=true',
      '/svc/formusage/Documents/fieldgroup?form=EditTenantProfile&hasEditPermission=true&showValidationSummary=true',
    ]);
  });

  it('shows the current file of a FileUpload field, with its download', async () => {
    const user = userEvent.setup();
    const { api, dialog } = await openTenantProfile({
      'GET /svc/formusage/tenant/1/files/Certificate': () =>
        new Response('%PDF-1.7', { headers: { 'Content-Type': 'application/pdf' } }),
    });
    await groupsShown(dialog);
    const field = within(dialog)
      .getByLabelText('Certificate of incorporation')
      .closest<HTMLElement>('[data-field]')!;
    expect(within(field).getByText('Current file: certificate.pdf')).toBeVisible();
    await user.click(within(field).getByRole('button', { name: 'Download certificate.pdf' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    expect(api.callsTo('GET', '/svc/formusage/tenant/1/files/Certificate')).toHaveLength(1);
    const [blob, name] = vi.mocked(saveFile).mock.calls[0]!;
    expect(name).toBe('certificate.pdf');
    expect(await blob.text()).toBe('%PDF-1.7');
  });

  it('saves as multipart: Target, TenantId, FormData and the chosen files; then a toast and it closes', async () => {
    const user = userEvent.setup();
    const { api, dialog, onOpenChange } = await openTenantProfile();
    await groupsShown(dialog);
    const legalName = within(dialog).getByRole('textbox', { name: /Legal name/ });
    await user.clear(legalName);
    await user.type(legalName, 'Acme Corp');
    await user.type(within(dialog).getByRole('textbox', { name: 'Notes' }), 'Fast track');
    const file = new File(['%PDF-1.7'], 'new-certificate.pdf', { type: 'application/pdf' });
    await user.upload(within(dialog).getByLabelText('Certificate of incorporation'), file);
    await save(user, dialog);

    expect(await screen.findByText(PROFILE_SAVED_MESSAGE)).toBeVisible();
    expect(onOpenChange).toHaveBeenCalledWith(false);
    const parts = submittedParts(api);
    expect([...parts.keys()]).toEqual(['Target', 'TenantId', 'FormData', 'DataObject.Certificate']);
    expect(parts.get('Target')).toBe('Tenant');
    expect(parts.get('TenantId')).toBe('1');
    expect(JSON.parse(parts.get('FormData') as string)).toEqual({
      'DataObject.LegalName': 'Acme Corp',
      'DataObject.Country': '826',
      'DataObject.Regulated': 'true',
      'DataObject.Certificate': 'new-certificate.pdf',
      'DataObject.Notes': 'Fast track',
    });
    const sent = parts.get('DataObject.Certificate') as File;
    expect(sent.name).toBe('new-certificate.pdf');
    expect(await sent.text()).toBe('%PDF-1.7');
  });

  it('says “validation errors” on a 400 and marks each field with its messages joined by commas', async () => {
    const user = userEvent.setup();
    const { dialog, onOpenChange } = await openTenantProfile({
      [SUBMIT]: jsonResponse(
        {
          title: 'One or more validation errors occurred.',
          errors: {
            'Legal name': ['Legal name is required.', 'Legal name is too short.'],
            Notes: ['Notes must be 200 characters or less.'],
          },
        },
        400,
      ),
    });
    await groupsShown(dialog);
    await save(user, dialog);

    expect(await within(dialog).findByText('Please correct the validation errors.')).toBeVisible();
    const legalName = within(dialog).getByRole('textbox', { name: /Legal name/ });
    expect(legalName).toHaveAttribute('aria-invalid', 'true');
    expect(legalName.closest('[data-field]')).toHaveClass('df-invalid');
    expect(dialog.querySelector('#df-LegalName-error')).toHaveTextContent(
      'Legal name is required., Legal name is too short.',
    );
    expect(legalName).toHaveFocus();
    const notes = within(dialog).getByRole('textbox', { name: 'Notes' });
    expect(notes).toHaveAccessibleDescription(
      'Anything the reviewer should know. Notes must be 200 characters or less.',
    );
    // Each group's summary lists its own fields.
    const company = within(dialog).getByRole('group', { name: 'Company' });
    expect(within(company).getAllByRole('alert')[0]).toHaveTextContent(
      'Legal name: Legal name is required., Legal name is too short.',
    );
    expect(within(dialog).getByRole('checkbox', { name: 'Regulated' })).not.toHaveAttribute(
      'aria-invalid',
    );
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it.each([
    [
      'the server message',
      jsonResponse({ message: 'Tenant 1 not found.' }, 404),
      'Tenant 1 not found.',
    ],
    ['the title', jsonResponse({ title: 'Payload Too Large' }, 413), 'Payload Too Large'],
  ])('shows %s when the save fails otherwise', async (_case, answer, text) => {
    const user = userEvent.setup();
    const { dialog } = await openTenantProfile({ [SUBMIT]: answer });
    await groupsShown(dialog);
    await save(user, dialog);
    expect(await within(dialog).findByText(text)).toBeVisible();
  });

  it('says so when the profile form does not exist', async () => {
    const { dialog } = await openTenantProfile({
      'GET /svc/formusage/tenant/1': profile({ formExists: false, groups: [] }),
    });
    expect(
      await within(dialog).findByText('The profile form EditTenantProfile does not exist.'),
    ).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('needs a signed-in user', async () => {
    mockApi(routes());
    signOut();
    renderScreen(<TenantProfileDialog open onOpenChange={vi.fn()} tenant={ACME} />);
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Not signed in: user not authenticated.')).toBeVisible();
    signInAs(STAFF_USER);
  });
});

describe('entity profile dialog', () => {
  it('is the entity’s, for a tenant user too (countries among the choices), and saves with EntityId', async () => {
    signInAs(TENANT_USER);
    const user = userEvent.setup();
    const api = mockApi(
      routes({
        // A tenant user is answered the choices only.
        ...CHOICE_ROUTES,
        [`GET /svc/formusage/entity/${ENTITY_ID}`]: profile({
          target: 'Entity',
          partyEntityId: ENTITY_ID,
          formName: 'EditEntityProfile',
          groups: ['Company'],
          metadata: { LegalName: 'Acme Holdings Ltd', Country: '840' },
        }),
      }),
    );
    renderScreen(<EntityProfileDialog open onOpenChange={vi.fn()} entity={ENTITY} />);
    const dialog = await screen.findByRole('dialog', { name: 'Entity profile: Acme Holdings' });
    const legalName = await within(dialog).findByRole('textbox', { name: /Legal name/ });
    expect(legalName).toHaveValue('Acme Holdings Ltd');
    // The stored country shows by its name, from the choices.
    const country = within(dialog).getByRole('combobox', { name: 'Country of registration' });
    expect(country).toHaveValue('840');
    await waitFor(() =>
      expect(within(country).getByRole('option', { selected: true })).toHaveTextContent(
        'United States of America',
      ),
    );
    expect(api.callsTo('GET', '/api/countries')).toHaveLength(1);
    const [groupCall] = api.spy.mock.calls
      .map(([input]) => new URL(String(input)))
      .filter((url) => url.pathname === '/svc/formusage/Company/fieldgroup');
    expect(groupCall?.searchParams.get('form')).toBe('EditEntityProfile');

    await save(user, dialog);
    await screen.findByText(PROFILE_SAVED_MESSAGE);
    const parts = submittedParts(api);
    expect(parts.get('Target')).toBe('Entity');
    expect(parts.get('EntityId')).toBe(ENTITY_ID);
    expect(parts.has('TenantId')).toBe(false);
    expect(JSON.parse(parts.get('FormData') as string)).toEqual({
      'DataObject.LegalName': 'Acme Holdings Ltd',
      'DataObject.Country': '840',
      'DataObject.Regulated': 'false',
    });
  });
});
