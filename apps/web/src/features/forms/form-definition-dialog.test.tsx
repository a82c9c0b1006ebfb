import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormDefinition } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen, type ApiRoute } from '@/app/testing/screen';
import { setUpScreenTests } from '@/test/screen-tests';
import { openDialog, save } from '@/test/queries';
import {
  BIRTH_DATE,
  CATALOGUE,
  CITY,
  FIRST_NAME,
  LAST_NAME,
  STREET,
  addField,
  definition,
  expectFieldMessage,
  formItem,
  groupOrder,
  optionName,
  selectedFields,
} from './forms-test-data';
import FormsPage from '.';

const LIST = '/svc/formauthoring/list';
const ALL_FIELDS = '/svc/formauthoring/allfields';
const CREATE = '/svc/formauthoring';

const KYC = formItem(7, 'Kyc');
const KYC_DEFINITION = definition(KYC, [STREET.id, FIRST_NAME.id], {
  uiGroupOrder: ['Personal', 'Address'],
  colSpanOverride: 6,
});

setUpScreenTests(STAFF_USER);

function renderForms(routes: Record<string, ApiRoute> = {}) {
  const api = mockApi({
    [`GET ${LIST}`]: [KYC, formItem(8, 'Onboarding')],
    [`GET ${ALL_FIELDS}`]: CATALOGUE,
    [`POST ${CREATE}`]: { name: 'saved' },
    ...routes,
  });
  renderScreen(<FormsPage />, { path: '/dashboard/forms' });
  return { api, user: userEvent.setup() };
}

async function openRowDialog(
  user: ReturnType<typeof userEvent.setup>,
  action: 'Edit' | 'Clone',
  title: string,
) {
  await user.click(await screen.findByRole('button', { name: `${action} Kyc` }));
  const dialog = await screen.findByRole('dialog', { name: title });
  await within(dialog).findByRole('textbox', { name: 'Name' });
  return dialog;
}

const nameInput = (dialog: HTMLElement) => within(dialog).getByRole('textbox', { name: 'Name' });

describe('creating a form', () => {
  it('refuses a missing, invalid or taken name', async () => {
    const { api, user } = renderForms();
    await screen.findByRole('cell', { name: 'Kyc' });
    const dialog = await openDialog(user, 'Create New Form');
    expect(within(dialog).getByText('No fields selected.')).toBeVisible();
    expect(within(dialog).getByText('The groups of the selected fields show here.')).toBeVisible();

    await save(user, dialog);
    expectFieldMessage(dialog, 'Name', 'Name is required.');
    await user.type(nameInput(dialog), '1form');
    await save(user, dialog);
    expectFieldMessage(
      dialog,
      'Name',
      'Name must start with a letter and contain only letters, numbers, and underscores.',
    );
    await user.clear(nameInput(dialog));
    await user.type(nameInput(dialog), 'kyc');
    await save(user, dialog);
    expectFieldMessage(dialog, 'Name', 'A form named kyc already exists.');
    expect(api.callsTo('POST', CREATE)).toHaveLength(0);
  });

  it('posts the fields in save order, and says so', async () => {
    const { api, user } = renderForms();
    const dialog = await openDialog(user, 'Create New Form');
    await user.type(nameInput(dialog), 'Retail_Onboarding');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Retail');
    // Picked in an order unlike the save order: groups by first appearance, fields by order.
    for (const field of [CITY, BIRTH_DATE, LAST_NAME, STREET, FIRST_NAME]) {
      await addField(user, dialog, field);
    }
    expect(groupOrder(dialog)).toEqual(['Address', 'Personal']);
    expect(selectedFields(dialog)).toEqual([
      'Street (Street)',
      'City (City)',
      'First Name (FirstName)',
      'Last Name (LastName)',
      'Birth Date (BirthDate)',
    ]);
    await save(user, dialog);

    await waitFor(() => expect(api.callsTo('POST', CREATE)).toHaveLength(1));
    expect(api.callsTo('POST', CREATE)[0]!.body).toEqual({
      name: 'Retail_Onboarding',
      description: 'Retail',
      fields: [STREET.id, CITY.id, FIRST_NAME.id, LAST_NAME.id, BIRTH_DATE.id],
      uiGroupOrder: ['Address', 'Personal'],
      colSpanOverride: 0,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getAllByText('Form created successfully').length).toBeGreaterThanOrEqual(2);
  });

  it('offers each field once: a selected field cannot be added again', async () => {
    const { user } = renderForms();
    const dialog = await openDialog(user, 'Create New Form');
    await addField(user, dialog, FIRST_NAME);
    await user.click(within(dialog).getByRole('combobox', { name: 'Field to add' }));
    const taken = await screen.findByRole('option', {
      name: `${optionName(FIRST_NAME)} (selected)`,
    });
    expect(taken).toHaveAttribute('aria-disabled', 'true');
    await user.click(taken);
    expect(screen.getByRole('listbox')).toBeVisible();
    await user.keyboard('{Escape}');
    expect(within(dialog).getByRole('button', { name: 'Add field' })).toBeDisabled();
    expect(selectedFields(dialog)).toEqual(['First Name (FirstName)']);
  });

  it('keeps the column span override from 0 to 12', async () => {
    const { api, user } = renderForms();
    const dialog = await openDialog(user, 'Create New Form');
    await user.type(nameInput(dialog), 'Spans');
    const span = within(dialog).getByRole('spinbutton', { name: 'Column span override' });
    expect(span).toHaveValue(0);
    expect(span).toHaveAttribute('min', '0');
    expect(span).toHaveAttribute('max', '12');
    for (const value of ['13', '-1', '2.5']) {
      await user.clear(span);
      await user.type(span, value);
      await save(user, dialog);
      expectFieldMessage(
        dialog,
        'Column span override',
        'Column span override must be a number from 0 to 12',
      );
    }
    expect(api.callsTo('POST', CREATE)).toHaveLength(0);
    await user.clear(span);
    await user.type(span, '12');
    await save(user, dialog);
    await waitFor(() => expect(api.callsTo('POST', CREATE)).toHaveLength(1));
    expect(api.callsTo('POST', CREATE)[0]!.body).toMatchObject({ colSpanOverride: 12 });
  });

  it.each([
    [
      'a 400 under the field it names',
      jsonResponse(
        {
          message: 'Invalid body',
          errors: [{ path: 'colSpanOverride', message: 'Column span override is refused' }],
        },
        400,
      ),
      'Column span override',
      'Column span override is refused',
    ],
    [
      'a 409 under the name',
      jsonResponse({ message: 'A form named Spans already exists.' }, 409),
      'Name',
      'A form named Spans already exists.',
    ],
  ])("shows the server's refusal: %s", async (_case, answer, label, message) => {
    const { user } = renderForms({ [`POST ${CREATE}`]: answer });
    const dialog = await openDialog(user, 'Create New Form');
    await user.type(nameInput(dialog), 'Spans');
    await save(user, dialog);
    await waitFor(() => expectFieldMessage(dialog, label, message));
    expect(screen.getByRole('dialog', { name: 'Create New Form' })).toBeVisible();
  });
  it('shows a 400 on the group order under it', async () => {
    const { user } = renderForms({
      [`POST ${CREATE}`]: jsonResponse(
        {
          message: 'Invalid body',
          errors: [
            { path: 'uiGroupOrder.0', message: 'A UI group must be 100 characters or less' },
          ],
        },
        400,
      ),
    });
    const dialog = await openDialog(user, 'Create New Form');
    await user.type(nameInput(dialog), 'Groups');
    await addField(user, dialog, STREET);
    await save(user, dialog);
    expect(
      await within(dialog).findByText('A UI group must be 100 characters or less'),
    ).toBeVisible();
    expect(
      within(dialog).getByRole('group', { name: 'UI group order' }),
    ).toHaveAccessibleDescription(
      'The order in which the form shows its field groups. A UI group must be 100 characters or less',
    );
  });

  it.each([
    ["the server's message", jsonResponse({ message: 'Forms are read-only now.' }, 503)],
    ["'Failed to create form' and the status", new Response('', { status: 500 })],
  ])('says why a save failed otherwise: %s', async (_case, answer) => {
    const { user } = renderForms({ [`POST ${CREATE}`]: answer });
    const dialog = await openDialog(user, 'Create New Form');
    await user.type(nameInput(dialog), 'Spans');
    await save(user, dialog);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      answer.status === 503 ? 'Forms are read-only now.' : 'Failed to create form: 500',
    );
    expect(nameInput(dialog)).toHaveValue('Spans');
  });
});

describe('editing a form', () => {
  it('loads the definition, locks the name, and puts it back with its id', async () => {
    const { api, user } = renderForms({
      'GET /svc/formauthoring/Kyc/definition': KYC_DEFINITION,
      'PUT /svc/formauthoring/Kyc': { name: 'Kyc' },
    });
    const dialog = await openRowDialog(user, 'Edit', 'Edit Form');
    expect(nameInput(dialog)).toHaveValue('Kyc');
    expect(nameInput(dialog)).toHaveAttribute('readonly');
    expect(nameInput(dialog)).toHaveAccessibleDescription('The name of a form cannot be changed.');
    expect(within(dialog).getByRole('textbox', { name: 'Description' })).toHaveValue('About Kyc');
    expect(within(dialog).getByRole('spinbutton', { name: 'Column span override' })).toHaveValue(6);
    // The stored group order, not the order of first appearance.
    expect(groupOrder(dialog)).toEqual(['Personal', 'Address']);
    expect(selectedFields(dialog)).toEqual(['First Name (FirstName)', 'Street (Street)']);

    await addField(user, dialog, CITY);
    await save(user, dialog);
    await waitFor(() => expect(api.callsTo('PUT', '/svc/formauthoring/Kyc')).toHaveLength(1));
    expect(api.callsTo('PUT', '/svc/formauthoring/Kyc')[0]!.body).toEqual({
      id: 7,
      name: 'Kyc',
      description: 'About Kyc',
      fields: [FIRST_NAME.id, STREET.id, CITY.id],
      uiGroupOrder: ['Personal', 'Address'],
      colSpanOverride: 6,
    });
    expect(await screen.findAllByText('Form updated successfully')).not.toHaveLength(0);
  });

  it("says 'Failed to update form' and the status when a save fails", async () => {
    const { user } = renderForms({
      'GET /svc/formauthoring/Kyc/definition': KYC_DEFINITION,
      'PUT /svc/formauthoring/Kyc': new Response('', { status: 502 }),
    });
    const dialog = await openRowDialog(user, 'Edit', 'Edit Form');
    await save(user, dialog);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to update form: 502',
    );
  });

  it('says why the definition did not load', async () => {
    const { user } = renderForms({
      'GET /svc/formauthoring/Kyc/definition': new Response('', { status: 500 }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Kyc' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Form' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to fetch form definition: 500',
    );
  });

  it('shows missing field references in red; removing one leaves it out of the save', async () => {
    const { api, user } = renderForms({
      'GET /svc/formauthoring/Kyc/definition': definition(KYC, [FIRST_NAME.id, 99, STREET.id, 98]),
      'PUT /svc/formauthoring/Kyc': { name: 'Kyc' },
    });
    const dialog = await openRowDialog(user, 'Edit', 'Edit Form');
    expect(selectedFields(dialog)).toEqual([
      'First Name (FirstName)',
      'Street (Street)',
      'Missing field reference: 99',
      'Missing field reference: 98',
    ]);
    const list = within(dialog).getByRole('list', { name: 'Selected fields' });
    const missing = within(list).getByText('Missing field reference: 99').closest('li')!;
    expect(missing).toHaveClass('text-destructive');
    expect(within(list).getByText('Street (Street)').closest('li')).not.toHaveClass(
      'text-destructive',
    );
    expect(
      within(dialog).getByText('Fields shown in red no longer exist. Remove them from the form.'),
    ).toBeVisible();

    await user.click(
      within(dialog).getByRole('button', { name: 'Remove Missing field reference: 99' }),
    );
    expect(selectedFields(dialog)).not.toContain('Missing field reference: 99');
    await save(user, dialog);
    await waitFor(() => expect(api.callsTo('PUT', '/svc/formauthoring/Kyc')).toHaveLength(1));
    expect(api.callsTo('PUT', '/svc/formauthoring/Kyc')[0]!.body).toMatchObject({
      fields: [FIRST_NAME.id, STREET.id, 98],
    });
  });
});

describe('cloning a form', () => {
  const cloneRoutes = (list = [KYC]): Record<string, ApiRoute> => ({
    [`GET ${LIST}`]: list,
    'GET /svc/formauthoring/Kyc/definition': KYC_DEFINITION,
  });

  it("names the clone with '_Copy' and posts it without id", async () => {
    const { api, user } = renderForms(cloneRoutes());
    const dialog = await openRowDialog(user, 'Clone', 'Clone Form');
    expect(nameInput(dialog)).toHaveValue('Kyc_Copy');
    expect(nameInput(dialog)).not.toHaveAttribute('readonly');
    await save(user, dialog);
    await waitFor(() => expect(api.callsTo('POST', CREATE)).toHaveLength(1));
    const body = api.callsTo('POST', CREATE)[0]!.body as Partial<FormDefinition>;
    expect(body).not.toHaveProperty('id');
    expect(body).toEqual({
      name: 'Kyc_Copy',
      description: 'About Kyc',
      fields: [FIRST_NAME.id, STREET.id],
      uiGroupOrder: ['Personal', 'Address'],
      colSpanOverride: 6,
    });
    expect(await screen.findAllByText('Form cloned successfully')).not.toHaveLength(0);
  });

  it('refuses a name the list already has, whatever its letter case', async () => {
    const { api, user } = renderForms(cloneRoutes([KYC, formItem(9, 'KYC_copy')]));
    const dialog = await openRowDialog(user, 'Clone', 'Clone Form');
    await save(user, dialog);
    expectFieldMessage(dialog, 'Name', 'A form named Kyc_Copy already exists.');
    expect(api.callsTo('POST', CREATE)).toHaveLength(0);
  });
});

describe('the UI group order', () => {
  it('is a 200 px scroll area that follows the fields and moves by keyboard', async () => {
    const { api, user } = renderForms();
    const dialog = await openDialog(user, 'Create New Form');
    expect(within(dialog).getByTestId('group-order-scroll-area')).toHaveStyle({ height: '200px' });
    await user.type(nameInput(dialog), 'Groups');
    await addField(user, dialog, FIRST_NAME);
    await addField(user, dialog, STREET);
    expect(groupOrder(dialog)).toEqual(['Personal', 'Address']);
    expect(within(dialog).getByRole('button', { name: 'Move Personal up' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Move Address down' })).toBeDisabled();

    within(dialog).getByRole('button', { name: 'Move Personal down' }).focus();
    await user.keyboard('{Enter}');
    expect(groupOrder(dialog)).toEqual(['Address', 'Personal']);
    // Personal reached the end: the focus goes to its other button.
    expect(within(dialog).getByRole('button', { name: 'Move Personal up' })).toHaveFocus();
    expect(within(dialog).getByText('Personal moved to position 2 of 2.')).toBeInTheDocument();
    expect(selectedFields(dialog)).toEqual(['Street (Street)', 'First Name (FirstName)']);

    // A group goes with its last field, and a group added comes last.
    await user.click(within(dialog).getByRole('button', { name: 'Remove Street (Street)' }));
    expect(groupOrder(dialog)).toEqual(['Personal']);
    await addField(user, dialog, CITY);
    expect(groupOrder(dialog)).toEqual(['Personal', 'Address']);

    await save(user, dialog);
    await waitFor(() => expect(api.callsTo('POST', CREATE)).toHaveLength(1));
    expect(api.callsTo('POST', CREATE)[0]!.body).toMatchObject({
      fields: [FIRST_NAME.id, CITY.id],
      uiGroupOrder: ['Personal', 'Address'],
    });
  });

  it('lets the selected fields be removed by keyboard, the focus moving on', async () => {
    const { user } = renderForms();
    const dialog = await openDialog(user, 'Create New Form');
    for (const field of [FIRST_NAME, LAST_NAME, STREET]) await addField(user, dialog, field);
    within(dialog).getByRole('button', { name: 'Remove Last Name (LastName)' }).focus();
    await user.keyboard('{Enter}');
    expect(within(dialog).getByRole('button', { name: 'Remove Street (Street)' })).toHaveFocus();
    await user.keyboard(' ');
    expect(
      within(dialog).getByRole('button', { name: 'Remove First Name (FirstName)' }),
    ).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(selectedFields(dialog)).toEqual([]);
    expect(within(dialog).getByRole('combobox', { name: 'Field to add' })).toHaveFocus();
    expect(groupOrder(dialog)).toEqual([]);
  });
});
