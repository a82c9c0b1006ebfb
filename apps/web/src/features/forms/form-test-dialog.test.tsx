import { describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormDefinition, FormField, FormFieldType } from '@console/contracts';
import { aFormField } from '@console/contracts/testing';
import { STAFF_USER, signOut } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen, type ApiRoute } from '@/app/testing/screen';
import { setUpScreenTests } from '@/test/screen-tests';
import {
  groupHtml,
  htmlResponse,
  REFERENCE_ROUTES,
  unresolvedHtml,
  type TestField,
} from '@/test/dynamic-forms';
import type { User } from '@/test/queries';
import { FormTestDialog } from './form-test-dialog';

const NOW = '2026-01-01T00:00:00.000Z';

function field(
  id: number,
  name: string,
  displayName: string,
  uiGroup: string,
  type: FormFieldType = 'Text',
): FormField {
  return aFormField({ id, name, displayName, uiGroup, type, order: id });
}

const DEFINITION: FormDefinition = {
  id: 7,
  name: 'KycCompany',
  description: 'Company onboarding',
  fields: [1, 2, 3, 4],
  // 'Contact' first; the groups of the fields come in order of first appearance after it.
  uiGroupOrder: ['Contact', 'Retired group'],
  colSpanOverride: 0,
  createdAt: NOW,
  updatedAt: NOW,
  field_definitions: [
    field(1, 'CompanyName', 'Company name', 'Company'),
    field(2, 'Country', 'Country of registration', 'Company', 'Country'),
    field(3, 'Regulated', 'Regulated', 'Company', 'Checkbox'),
    field(4, 'Email', 'Email', 'Contact', 'Email'),
  ],
};

const COMPANY: TestField[] = [
  { name: 'CompanyName', label: 'Company name', required: true },
  { name: 'Country', label: 'Country of registration', type: 'Country' },
  { name: 'Regulated', label: 'Regulated', type: 'Checkbox', span: 12 },
];
const CONTACT: TestField[] = [{ name: 'Email', label: 'Email', type: 'Email' }];

const FORM = '/svc/formauthoring/KycCompany';
const SUBMIT = `POST ${FORM}/submit`;

function routes(overrides: Record<string, ApiRoute> = {}): Record<string, ApiRoute> {
  return {
    ...REFERENCE_ROUTES,
    [`GET ${FORM}/definition`]: DEFINITION,
    [`GET ${FORM}/fieldgroup/Contact`]: () => htmlResponse(groupHtml('Contact', CONTACT)),
    [`GET ${FORM}/fieldgroup/Company`]: () => htmlResponse(groupHtml('Company', COMPANY)),
    [SUBMIT]: { message: 'Form submitted successfully.', submittedData: {} },
    ...overrides,
  };
}

/** Opens the test dialog of `formName` against `routes(overrides)`, once its groups are shown. */
async function openTest(
  overrides: Record<string, ApiRoute> = {},
  formName: string | null = 'KycCompany',
) {
  const api = mockApi(routes(overrides));
  renderScreen(<FormTestDialog open onOpenChange={vi.fn()} formName={formName} />);
  const dialog = await screen.findByRole('dialog', { name: `Test form ${formName ?? ''}`.trim() });
  return { api, dialog };
}

const submit = (user: User, dialog: HTMLElement) =>
  user.click(within(dialog).getByRole('button', { name: 'Submit' }));

setUpScreenTests(STAFF_USER);

describe('form-test dialog', () => {
  it('renders the groups in their order, fills the country choices and submits {DataObject}', async () => {
    const user = userEvent.setup();
    const { api, dialog } = await openTest();
    const groups = await within(dialog).findAllByRole('group');
    expect(groups.map((group) => group.getAttribute('data-group'))).toEqual(['Contact', 'Company']);
    expect(dialog.querySelector('.df-form')).toHaveAttribute('data-form', 'KycCompany');

    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'ops@acme.example');
    await user.type(within(dialog).getByRole('textbox', { name: /Company name/ }), 'Acme');
    const country = within(dialog).getByRole('combobox', { name: 'Country of registration' });
    await within(country).findByRole('option', { name: 'United Kingdom' });
    await user.selectOptions(country, 'United Kingdom');
    await submit(user, dialog);

    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'Form submitted successfully.',
    );
    expect(api.callsTo('POST', `${FORM}/submit`)).toEqual([
      {
        method: 'POST',
        path: `${FORM}/submit`,
        body: {
          DataObject: {
            Email: 'ops@acme.example',
            CompanyName: 'Acme',
            Country: '826',
            Regulated: 'false',
          },
        },
      },
    ]);
  });

  it('shows a group that failed to load in its place, and a warning naming the failed groups', async () => {
    const { dialog } = await openTest({
      [`GET ${FORM}/fieldgroup/Contact`]: jsonResponse(
        { message: 'Field group service unavailable.' },
        500,
      ),
    });
    expect(
      await within(dialog).findByText(
        'The field group Contact could not be loaded: Field group service unavailable.',
      ),
    ).toBeVisible();
    expect(
      within(dialog).getByText('These field groups could not be loaded: Contact'),
    ).toBeVisible();
    // The other group is there, after the failed one.
    expect(await within(dialog).findByRole('group', { name: 'Company' })).toBeVisible();
    const failed = dialog.querySelector('[data-failed-group="Contact"]')!;
    expect(
      failed.compareDocumentPosition(within(dialog).getByRole('group', { name: 'Company' })),
    ).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
  });

  it('warns about an unresolved field reference in the HTML', async () => {
    const { dialog } = await openTest({
      [`GET ${FORM}/fieldgroup/Contact`]: () =>
        htmlResponse(unresolvedHtml(42) + groupHtml('Contact', CONTACT)),
    });
    expect(
      await within(dialog).findByText(
        'The form references fields that do not exist (unresolved field reference): 42',
      ),
    ).toBeVisible();
    expect(within(dialog).getByText('unresolved field reference: 42')).toBeVisible();
  });

  it('shows the server title with each field’s messages, and marks the refused inputs', async () => {
    const user = userEvent.setup();
    const { dialog } = await openTest({
      [SUBMIT]: jsonResponse(
        {
          title: 'One or more validation errors occurred.',
          errors: {
            'Company name': ['Company name is required.'],
            Email: ['Email must be a valid email address.', 'Email is too long.'],
          },
        },
        400,
      ),
    });
    await within(dialog).findByRole('group', { name: 'Company' });
    await submit(user, dialog);

    const alert = await within(dialog).findByText('One or more validation errors occurred.');
    const list = alert.closest<HTMLElement>('[role="alert"]')!;
    expect(within(list).getByText('Company name').nextElementSibling).toHaveTextContent(
      'Company name is required.',
    );
    expect(
      within(within(list).getByText('Email').nextElementSibling as HTMLElement)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Email must be a valid email address.', 'Email is too long.']);

    const email = within(dialog).getByRole('textbox', { name: 'Email' });
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email.closest('[data-field]')).toHaveClass('df-invalid');
    expect(email).toHaveAccessibleDescription(
      'Email must be a valid email address., Email is too long.',
    );
    expect(within(dialog).getByRole('textbox', { name: /Company name/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(within(dialog).getByRole('checkbox', { name: 'Regulated' })).not.toHaveAttribute(
      'aria-invalid',
    );
  });

  it.each([
    [
      'a 400 with errors and no title',
      jsonResponse({ errors: { Email: ['Email is required.'] } }, 400),
      'Validation failed.',
    ],
    ['a 400 without errors', jsonResponse({}, 400), 'Validation failed. Please check the form.'],
    [
      'a 400 of the request schema',
      jsonResponse(
        {
          message: 'A value must be a string',
          errors: [{ path: 'DataObject.Email', message: 'x' }],
        },
        400,
      ),
      'A value must be a string',
    ],
    ['a 500 without a message', jsonResponse({}, 500), 'Submission failed with status: 500'],
    [
      'a 404 with a message',
      jsonResponse({ message: 'Form KycCompany not found.' }, 404),
      'Form KycCompany not found.',
    ],
  ])('says what went wrong on %s', async (_case, answer, text) => {
    const user = userEvent.setup();
    const { dialog } = await openTest({ [SUBMIT]: answer });
    await within(dialog).findByRole('group', { name: 'Company' });
    await submit(user, dialog);
    expect(await within(dialog).findByText(text)).toBeVisible();
  });

  it('says an unexpected error occurred when the call itself fails', async () => {
    const user = userEvent.setup();
    const { dialog } = await openTest({
      [SUBMIT]: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await within(dialog).findByRole('group', { name: 'Company' });
    await submit(user, dialog);
    expect(
      await within(dialog).findByText('An unexpected error occurred during submission.'),
    ).toBeVisible();
  });

  it('does not submit without a form name', async () => {
    const user = userEvent.setup();
    const { api, dialog } = await openTest({}, null);
    await submit(user, dialog);
    expect(await within(dialog).findByText('Form name is missing. Cannot submit.')).toBeVisible();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('does not submit without a token', async () => {
    const user = userEvent.setup();
    const { api, dialog } = await openTest();
    await within(dialog).findByRole('group', { name: 'Company' });
    act(() => signOut());
    await submit(user, dialog);
    expect(await within(dialog).findByText('Authentication token not found.')).toBeVisible();
    expect(api.callsTo('POST', `${FORM}/submit`)).toEqual([]);
  });

  it('is used with the keyboard: the fields, then Submit with Enter', async () => {
    const user = userEvent.setup();
    const { api, dialog } = await openTest();
    const email = await within(dialog).findByRole('textbox', { name: 'Email' });
    await within(dialog).findByRole('group', { name: 'Company' });
    email.focus();
    await user.keyboard('ops@acme.example');
    await user.tab();
    expect(within(dialog).getByRole('textbox', { name: /Company name/ })).toHaveFocus();
    await user.keyboard('Acme{Enter}');
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'Form submitted successfully.',
    );
    expect(api.callsTo('POST', `${FORM}/submit`)[0]?.body).toMatchObject({
      DataObject: { Email: 'ops@acme.example', CompanyName: 'Acme' },
    });
  });
});
