import { aFormField } from '@console/contracts/testing';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormField } from '@console/contracts';
import { STAFF_USER, signInAs, signOut, type TestUser } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen, type ApiCall } from '@/app/testing/screen';
import { getAuthSession } from '@/lib/auth-session';
import { chooseOption, itemTexts, type User } from '@/test/queries';
import { setUpScreenTests } from '@/test/screen-tests';
import { FieldDialog } from './field-dialog';
import type { FieldDialogMode } from './field-form';
import { CREATE_PATH, fieldPath, fieldRoutes, savedField } from './testing';

const ADMIN_USER: TestUser = { name: 'Ann Admin', upn: 'ann@example.com', roles: ['admin'] };

const nationality = aFormField({ name: 'Nationality', type: 'Country', uiGroup: 'Address' });
const firstName = aFormField({
  name: 'FirstName',
  displayName: 'First name',
  uiGroup: 'Personal',
  order: 1,
  required: true,
  tags: ['identity'],
  apiReferences: { onfido: 'first_name' },
  conditionalRequirements: [{ fieldName: 'Nationality', triggerValues: ['!US', '!GB'] }],
});
const CATALOGUE = [nationality, firstName];

const echo = (status: number) => (call: ApiCall) => jsonResponse(savedField(call), status);

function renderDialog(
  mode: FieldDialogMode = 'create',
  field: FormField | null = null,
  routes: Record<string, unknown> = {},
) {
  const onOpenChange = vi.fn();
  const api = mockApi({ ...fieldRoutes(CATALOGUE), [`POST ${CREATE_PATH}`]: echo(201), ...routes });
  renderScreen(<FieldDialog open onOpenChange={onOpenChange} mode={mode} field={field} />);
  return { api, onOpenChange };
}

const dialog = () => screen.getByRole('dialog');
const textbox = (name: string) => within(dialog()).getByRole('textbox', { name });
const storageName = () => textbox('Storage Name');
const save = (user: User) => user.click(within(dialog()).getByRole('button', { name: 'Save' }));
const region = (name: string) => within(dialog()).getByRole('region', { name });

async function fillRequired(user: User, type = 'Text') {
  await user.type(storageName(), '  MiddleName ');
  await user.type(textbox('Display Name'), 'Middle name');
  await chooseOption(user, dialog(), 'Type', type);
}

/** The body of the one POST, once the dialog has sent it. */
async function postedBody(api: ReturnType<typeof mockApi>) {
  await waitFor(() => expect(api.callsTo('POST', CREATE_PATH)).toHaveLength(1));
  return api.callsTo('POST', CREATE_PATH)[0]!.body as Record<string, unknown>;
}

setUpScreenTests(STAFF_USER);

describe('field dialog, creating', () => {
  it("shows the spec's sections; Select Options only for a Select field", async () => {
    const user = userEvent.setup();
    renderDialog();
    expect(screen.getByRole('dialog', { name: 'Create Form Field' })).toBeVisible();
    const titles = within(dialog())
      .getAllByRole('region')
      .map((section) => section.getAttribute('aria-labelledby'))
      .map((id) => document.getElementById(id!)?.textContent);
    expect(titles).toEqual([
      'Basic Information',
      'Tags',
      'Validation & Constraints',
      'API References',
      'Conditional Requirements',
    ]);
    await chooseOption(user, dialog(), 'Type', 'Select');
    expect(region('Select Options')).toBeVisible();
  });

  it('saving without storage name, display name or type shows the alert and sends nothing', async () => {
    const user = userEvent.setup();
    const { api } = renderDialog();
    await save(user);
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'Storage Name, Display Name, and Type are required.',
    );
    expect(storageName()).toHaveAccessibleDescription(
      expect.stringContaining('Storage name is required.'),
    );
    expect(textbox('Display Name')).toHaveAttribute('aria-invalid', 'true');
    await user.type(storageName(), 'MiddleName');
    await user.type(textbox('Display Name'), 'Middle name');
    expect(within(dialog()).getByRole('alert')).toBeVisible();
    await chooseOption(user, dialog(), 'Type', 'Country Selector');
    await waitFor(() => expect(within(dialog()).queryByRole('alert')).toBeNull());
    expect(api.callsTo('POST', CREATE_PATH)).toEqual([]);
  });

  it('shows each storage-name message as it is typed, with the Upper Camel Case advice', async () => {
    const user = userEvent.setup();
    renderDialog();
    expect(storageName()).toHaveAccessibleDescription(expect.stringContaining('Upper Camel Case'));
    const says = (message: string) =>
      expect(storageName()).toHaveAccessibleDescription(expect.stringContaining(message));
    await user.type(storageName(), '1');
    says('Storage name must start with a letter or underscore.');
    await user.clear(storageName());
    says('Storage name is required.');
    await user.type(storageName(), 'First-');
    says('Storage name can only contain letters, numbers, and underscores.');
    await user.clear(storageName());
    await user.click(storageName());
    await user.paste('A'.repeat(51));
    says('Storage name must be 50 characters or less.');
    await user.clear(storageName());
    await user.type(storageName(), 'constructor');
    says('Storage name must not be constructor: JavaScript objects reserve that name.');
    await user.type(storageName(), '{Backspace}');
    expect(storageName()).not.toHaveAttribute('aria-invalid');
  });

  it('creates with the trimmed name, the type and the defaults, says so and closes', async () => {
    const user = userEvent.setup();
    const { api, onOpenChange } = renderDialog();
    await fillRequired(user);
    await save(user);
    expect(await postedBody(api)).toEqual({
      name: 'MiddleName',
      displayName: 'Middle name',
      type: 'Text',
      section: null,
      order: null,
      note: null,
      required: false,
      validationErrorMessage: null,
      maxLength: null,
      pattern: null,
      printLabel: null,
      requireFields: [],
      options: [],
      aliasFor: null,
      print: false,
      printSequence: null,
      viewPermissions: [],
      editPermissions: [],
      uiGroup: 'General',
      apiReferences: {},
      tags: [],
      conditionalRequirements: [],
    });
    expect(await screen.findByText('Form field created successfully')).toBeVisible();
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("normalises tags and flags a tag or API service no field uses yet as 'new, first time used'", async () => {
    const user = userEvent.setup();
    const { api } = renderDialog();
    await fillRequired(user);
    const tags = textbox('Tags');
    await user.type(tags, ' Identity, PHOTO, identity {Enter}');
    const chips = within(dialog()).getByRole('list', { name: 'Tags' });
    expect(itemTexts(chips)).toEqual(['identity', 'photonew, first time used']);
    await user.click(within(dialog()).getByRole('button', { name: 'Add API reference' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Add API reference' }));
    await user.type(textbox('Service name 1'), 'onfido');
    await user.type(textbox('Reference value 1'), 'middle_name');
    await user.type(textbox('Service name 2'), 'persona');
    await user.type(textbox('Reference value 2'), 'middle');
    expect(textbox('Service name 1')).not.toHaveAccessibleDescription();
    expect(textbox('Service name 2')).toHaveAccessibleDescription('new, first time used');
    await save(user);
    expect(await postedBody(api)).toMatchObject({
      tags: ['identity', 'photo'],
      apiReferences: { onfido: 'middle_name', persona: 'middle' },
    });
  });

  it('refuses an API reference without a value, under its cell', async () => {
    const user = userEvent.setup();
    const { api } = renderDialog();
    await fillRequired(user);
    await user.click(within(dialog()).getByRole('button', { name: 'Add API reference' }));
    await user.type(textbox('Service name 1'), 'onfido');
    await save(user);
    expect(textbox('Reference value 1')).toHaveAccessibleDescription('Reference value is required');
    expect(api.callsTo('POST', CREATE_PATH)).toEqual([]);
  });

  it('refuses a service name JavaScript objects reserve, under its cell', async () => {
    const user = userEvent.setup();
    const { api } = renderDialog();
    await fillRequired(user);
    await user.click(within(dialog()).getByRole('button', { name: 'Add API reference' }));
    await user.type(textbox('Service name 1'), ' constructor ');
    await user.type(textbox('Reference value 1'), 'x');
    await save(user);
    expect(textbox('Service name 1')).toHaveAccessibleDescription(
      'Service name constructor is a name JavaScript objects reserve',
    );
    expect(api.callsTo('POST', CREATE_PATH)).toEqual([]);
  });

  it('sends Select options one per line; changing the type away from Select clears them', async () => {
    const user = userEvent.setup();
    const { api } = renderDialog();
    await fillRequired(user, 'Select');
    const options = () =>
      within(region('Select Options')).getByRole('textbox', { name: 'Options' });
    await user.type(options(), 'Yes{Enter}{Enter}  No {Enter}Maybe');
    await chooseOption(user, dialog(), 'Type', 'Text');
    expect(within(dialog()).queryByRole('region', { name: 'Select Options' })).toBeNull();
    await chooseOption(user, dialog(), 'Type', 'Select');
    expect(options()).toHaveValue('');
    await user.type(options(), 'Yes{Enter}{Enter}  No {Enter}Maybe');
    await save(user);
    expect(await postedBody(api)).toMatchObject({
      type: 'Select',
      options: ['Yes', 'No', 'Maybe'],
    });
  });

  it("sends a 'none of' requirement with '!' before each value, and drops incomplete rows", async () => {
    const user = userEvent.setup();
    const { api } = renderDialog();
    await fillRequired(user);
    const add = within(dialog()).getByRole('button', { name: 'Add requirement' });
    await user.click(add);
    await user.click(add);
    await chooseOption(user, dialog(), 'Field name 1', 'Nationality');
    await chooseOption(user, dialog(), 'Requirement type 1', 'None of');
    await user.type(textbox('Trigger values 1'), 'US, GB,');
    await user.type(textbox('Message 1'), 'Needed outside the US and GB');
    await chooseOption(user, dialog(), 'Field name 2', 'FirstName');
    await save(user);
    expect((await postedBody(api)).conditionalRequirements).toEqual([
      {
        fieldName: 'Nationality',
        triggerValues: ['!US', '!GB'],
        validationMessage: 'Needed outside the US and GB',
      },
    ]);
  });

  it("shows the contract's refusal of a requirement under its section", async () => {
    const user = userEvent.setup();
    const { api } = renderDialog();
    await fillRequired(user);
    await user.clear(storageName());
    await user.type(storageName(), 'Nationality');
    await user.click(within(dialog()).getByRole('button', { name: 'Add requirement' }));
    await chooseOption(user, dialog(), 'Field name 1', 'Nationality');
    await user.type(textbox('Trigger values 1'), 'US');
    await save(user);
    expect(
      within(region('Conditional Requirements')).getByText('A field cannot depend on itself.'),
    ).toBeVisible();
    expect(api.callsTo('POST', CREATE_PATH)).toEqual([]);
  });

  it('can be filled in and saved from the keyboard alone', async () => {
    const user = userEvent.setup();
    const { api } = renderDialog();
    expect(storageName()).toHaveFocus();
    await user.keyboard('MiddleName{Tab}Middle name{Tab}');
    expect(within(dialog()).getByRole('combobox', { name: 'Type' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await screen.findByRole('listbox');
    await user.keyboard('Email{Enter}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    await user.keyboard('{Tab}Personal{Enter}');
    expect(await postedBody(api)).toMatchObject({
      name: 'MiddleName',
      displayName: 'Middle name',
      type: 'Email',
      uiGroup: 'Personal',
    });
  });
});

describe('field dialog, editing and cloning', () => {
  it("shows the stored field, 'none of' requirements without their '!'", async () => {
    renderDialog('edit', firstName);
    expect(screen.getByRole('dialog', { name: 'Edit Form Field' })).toBeVisible();
    expect(storageName()).toHaveValue('FirstName');
    expect(within(dialog()).getByRole('checkbox', { name: 'Required' })).toBeChecked();
    expect(
      within(dialog()).getByRole('combobox', { name: 'Requirement type 1' }),
    ).toHaveTextContent('None of');
    expect(textbox('Trigger values 1')).toHaveValue('US, GB');
  });

  it('keeps a valid storage name read-only for staff, and sends the field with its id', async () => {
    const user = userEvent.setup();
    const { api } = renderDialog('edit', firstName, { [`PUT ${fieldPath(firstName)}`]: echo(200) });
    expect(storageName()).toHaveAttribute('readonly');
    expect(storageName()).toHaveAccessibleDescription(
      'Only an administrator can change a valid storage name.',
    );
    await user.clear(textbox('Display Name'));
    await user.type(textbox('Display Name'), 'Given name');
    await save(user);
    expect(await screen.findByText('Form field updated successfully')).toBeVisible();
    expect(api.callsTo('PUT', fieldPath(firstName))[0]?.body).toMatchObject({
      id: firstName.id,
      name: 'FirstName',
      displayName: 'Given name',
      conditionalRequirements: [{ fieldName: 'Nationality', triggerValues: ['!US', '!GB'] }],
    });
  });

  it('lets staff mend an invalid storage name', async () => {
    renderDialog('edit', aFormField({ name: '1st-name' }));
    expect(storageName()).not.toHaveAttribute('readonly');
    expect(storageName()).toHaveAccessibleDescription(expect.stringContaining('Upper Camel Case'));
  });

  it('lets an admin rename a valid storage name', async () => {
    const user = userEvent.setup();
    signInAs(ADMIN_USER);
    const { api } = renderDialog('edit', firstName, { [`PUT ${fieldPath(firstName)}`]: echo(200) });
    expect(storageName()).not.toHaveAttribute('readonly');
    await user.clear(storageName());
    await user.type(storageName(), 'GivenName');
    await save(user);
    await screen.findByText('Form field updated successfully');
    expect(api.callsTo('PUT', fieldPath(firstName))[0]?.body).toMatchObject({ name: 'GivenName' });
  });

  it("clones with the timestamped name and ' (Clone)', and posts it without id", async () => {
    const user = userEvent.setup();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 11, 31, 23, 59, 58));
    try {
      const long = aFormField({ name: `Field${'x'.repeat(40)}`, displayName: 'Long' });
      const { api } = renderDialog('clone', long);
      expect(screen.getByRole('dialog', { name: 'Clone Form Field' })).toBeVisible();
      // 50 characters at most: the name is shortened before the suffix.
      expect(storageName()).toHaveValue(`Field${'x'.repeat(29)}_20251231_235958`);
      expect(storageName()).not.toHaveAttribute('readonly');
      expect(textbox('Display Name')).toHaveValue('Long (Clone)');
      await save(user);
      const body = await postedBody(api);
      expect(body).not.toHaveProperty('id');
      expect(body).toMatchObject({ name: `Field${'x'.repeat(29)}_20251231_235958` });
      expect(await screen.findByText('Form field cloned successfully')).toBeVisible();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("field dialog, the server's answers", () => {
  it('shows a 400 under the field it names', async () => {
    const user = userEvent.setup();
    const { onOpenChange } = renderDialog('create', null, {
      [`POST ${CREATE_PATH}`]: jsonResponse(
        {
          message: 'Invalid body',
          errors: [{ path: 'name', message: 'A field named MiddleName already exists.' }],
        },
        400,
      ),
    });
    await fillRequired(user);
    await save(user);
    await waitFor(() =>
      expect(storageName()).toHaveAccessibleDescription(
        expect.stringContaining('A field named MiddleName already exists.'),
      ),
    );
    expect(within(dialog()).queryByRole('alert')).toBeNull();
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('shows a 409 (a storage name in use) under the storage name', async () => {
    const user = userEvent.setup();
    renderDialog('create', null, {
      [`POST ${CREATE_PATH}`]: jsonResponse({ message: 'Storage name MiddleName is in use.' }, 409),
    });
    await fillRequired(user);
    await save(user);
    await waitFor(() =>
      expect(storageName()).toHaveAccessibleDescription(
        expect.stringContaining('Storage name MiddleName is in use.'),
      ),
    );
    expect(within(dialog()).queryByRole('alert')).toBeNull();
  });

  it("says 'Failed to create form field: {status}' and the server's reason", async () => {
    const user = userEvent.setup();
    renderDialog('create', null, {
      [`POST ${CREATE_PATH}`]: jsonResponse({ message: 'The database is not available' }, 503),
    });
    await fillRequired(user);
    await save(user);
    const alert = await within(dialog()).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to create form field: 503');
    expect(alert).toHaveTextContent('The database is not available');
    expect(storageName()).toHaveValue('  MiddleName ');
  });

  it("says 'Failed to update form field: 403' with the refusal, and keeps the session", async () => {
    const user = userEvent.setup();
    renderDialog('edit', firstName, {
      [`PUT ${fieldPath(firstName)}`]: jsonResponse(
        { message: 'Only an administrator can change a valid storage name.' },
        403,
      ),
    });
    await save(user);
    const alert = await within(dialog()).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to update form field: 403');
    expect(alert).toHaveTextContent('Only an administrator can change a valid storage name.');
    expect(getAuthSession().isAuthenticated).toBe(true);
  });

  it("says 'Authentication token not found.' without a token, and sends nothing", async () => {
    const user = userEvent.setup();
    const { api } = renderDialog();
    await fillRequired(user);
    signOut();
    await save(user);
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'Authentication token not found.',
    );
    expect(api.callsTo('POST', CREATE_PATH)).toEqual([]);
  });
});
