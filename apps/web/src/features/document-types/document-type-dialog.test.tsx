import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DocumentType } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import { setUpScreenTests } from '@/test/screen-tests';
import { DocumentTypeDialog } from './document-type-dialog';

const passport: DocumentType = {
  id: 'passport',
  displayName: 'Passport',
  tags: ['identity', 'travel'],
  apiReferences: { onfido: 'passport' },
  sequence: 10,
  validFrom: '2024-01-01T00:00:00.000Z',
  validTo: '2030-01-01T00:00:00.000Z',
  validityPeriod: { years: 10 },
};

const USED = {
  'GET /api/documenttypes/used-tags': ['identity', 'photo', 'travel'],
  'GET /api/documenttypes/used-api-service-names': ['onfido', 'persona'],
};

function renderDialog(documentType: DocumentType | null = null, routes = {}) {
  const onOpenChange = vi.fn();
  const api = mockApi({ ...USED, ...routes });
  renderScreen(<DocumentTypeDialog open onOpenChange={onOpenChange} documentType={documentType} />);
  return { api, onOpenChange };
}

const dialog = () => screen.getByRole('dialog');
const idInput = () => within(dialog()).getByRole('textbox', { name: 'ID' });
const displayNameInput = () => within(dialog()).getByRole('textbox', { name: 'Display Name' });
const saveButton = () => within(dialog()).getByRole('button', { name: 'Save' });
const field = (name: string) => within(dialog()).getByRole('spinbutton', { name });

setUpScreenTests(STAFF_USER);

describe('document type dialog, the ID', () => {
  it('strips invalid characters as typed and says which ones it keeps', async () => {
    const user = userEvent.setup();
    renderDialog();
    const message = 'ID can only contain lowercase letters, numbers, and underscores';
    await user.type(idInput(), 'pass-');
    expect(idInput()).toHaveValue('pass');
    expect(idInput()).toHaveAccessibleDescription(expect.stringContaining(message));
    // A clean keystroke: the message goes.
    await user.type(idInput(), 'p');
    expect(within(dialog()).queryByText(message)).toBeNull();
    await user.type(idInput(), 'O');
    expect(within(dialog()).getByText(message)).toBeVisible();
    // A paste keeps what it can.
    await user.clear(idInput());
    await user.click(idInput());
    await user.paste('Pass Port_2!');
    expect(idInput()).toHaveValue('assort_2');
    expect(within(dialog()).getByText(message)).toBeVisible();
  });

  it('shows each message of the spec under the field', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.type(idInput(), '1');
    expect(within(dialog()).getByText('ID must start with a lowercase letter')).toBeVisible();
    await user.clear(idInput());
    expect(within(dialog()).getByText('ID is required')).toBeVisible();
    await user.type(idInput(), 'a'.repeat(51));
    expect(within(dialog()).getByText('ID must be 50 characters or less')).toBeVisible();
    expect(idInput()).toHaveAttribute('aria-invalid', 'true');
    await user.type(idInput(), '{Backspace}');
    expect(within(dialog()).queryByText('ID must be 50 characters or less')).toBeNull();
    expect(idInput()).not.toHaveAttribute('aria-invalid');
  });

  it('is read-only in edit mode', async () => {
    renderDialog(passport);
    expect(screen.getByRole('dialog', { name: 'Edit Document Type' })).toBeVisible();
    expect(idInput()).toHaveValue('passport');
    expect(idInput()).toHaveAttribute('readonly');
  });
});

describe('document type dialog, Save', () => {
  it('is enabled exactly when the display name is set and the ID is valid (create)', async () => {
    const user = userEvent.setup();
    renderDialog();
    expect(screen.getByRole('dialog', { name: 'Add Document Type' })).toBeVisible();
    expect(saveButton()).toBeDisabled();
    await user.type(displayNameInput(), 'Residence permit');
    expect(saveButton()).toBeDisabled();
    await user.type(idInput(), '9');
    expect(saveButton()).toBeDisabled();
    await user.clear(idInput());
    await user.type(idInput(), 'residence_permit');
    expect(saveButton()).toBeEnabled();
    await user.clear(displayNameInput());
    expect(saveButton()).toBeDisabled();
    await user.type(displayNameInput(), '   ');
    expect(saveButton()).toBeDisabled();
  });

  it('needs only the display name in edit mode', async () => {
    const user = userEvent.setup();
    renderDialog(passport);
    expect(saveButton()).toBeEnabled();
    await user.clear(displayNameInput());
    expect(saveButton()).toBeDisabled();
  });

  it('creates with the normalised values, says so and closes', async () => {
    const user = userEvent.setup();
    const { api, onOpenChange } = renderDialog(null, {
      'POST /api/documenttypes': (call: { body: unknown }) => jsonResponse(call.body, 201),
    });
    await user.type(idInput(), 'residence_permit');
    await user.type(displayNameInput(), ' Residence permit ');
    await user.type(
      within(dialog()).getByRole('textbox', { name: 'Tags' }),
      'Identity, PHOTO{Enter}',
    );
    await user.click(within(dialog()).getByRole('button', { name: 'Add API reference' }));
    await user.type(within(dialog()).getByRole('textbox', { name: 'Service name 1' }), 'onfido');
    await user.type(
      within(dialog()).getByRole('textbox', { name: 'Reference value 1' }),
      'residence_permit',
    );
    await user.type(field('Sequence'), '40');
    await user.type(field('Years'), '5');
    await user.click(saveButton());

    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(api.callsTo('POST', '/api/documenttypes')[0]?.body).toEqual({
      id: 'residence_permit',
      displayName: 'Residence permit',
      tags: ['identity', 'photo'],
      apiReferences: { onfido: 'residence_permit' },
      sequence: 40,
      validityPeriod: { years: 5 },
      validFrom: null,
      validTo: null,
    });
    expect(await screen.findByText('Document type residence_permit created')).toBeVisible();
  });

  it('updates every field but the ID, keeping the stored validity dates', async () => {
    const user = userEvent.setup();
    const { api } = renderDialog(passport, {
      'PUT /api/documenttypes/passport': (call: { body: unknown }) => call.body,
    });
    await user.clear(displayNameInput());
    await user.type(displayNameInput(), 'Passport (ICAO)');
    await user.clear(field('Years'));
    await user.click(saveButton());
    await screen.findByText('Document type passport updated');
    // Every other field, the ID and the validity dates among them, as passport stores them.
    expect(api.callsTo('PUT', '/api/documenttypes/passport')[0]?.body).toEqual({
      ...passport,
      displayName: 'Passport (ICAO)',
      validityPeriod: null,
    });
  });

  it("shows the server's message in the dialog and keeps everything typed", async () => {
    const user = userEvent.setup();
    const { onOpenChange } = renderDialog(null, {
      'POST /api/documenttypes': jsonResponse(
        { message: 'Document type passport already exists' },
        409,
      ),
    });
    await user.type(idInput(), 'passport');
    await user.type(displayNameInput(), 'Passport');
    await user.type(within(dialog()).getByRole('textbox', { name: 'Tags' }), 'mrz{Enter}');
    await user.click(saveButton());
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'Document type passport already exists',
    );
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(idInput()).toHaveValue('passport');
    expect(displayNameInput()).toHaveValue('Passport');
    expect(within(dialog()).getByRole('list', { name: 'Tags' })).toHaveTextContent('mrz');
    expect(saveButton()).toBeEnabled();
  });

  it('shows a 400 answer of the server word for word', async () => {
    const user = userEvent.setup();
    renderDialog(null, {
      'POST /api/documenttypes': jsonResponse(
        { message: 'ID must start with a lowercase letter', errors: [] },
        400,
      ),
    });
    await user.type(idInput(), 'visa');
    await user.type(displayNameInput(), 'Visa');
    await user.click(saveButton());
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'ID must start with a lowercase letter',
    );
  });
});

describe('document type dialog, validity period and sequence', () => {
  it.each([
    ['Years', '-1', 'Years must be a whole number of 0 or more'],
    ['Months', '12', 'Months must be a whole number from 0 to 11'],
    ['Days', '31', 'Days must be a whole number from 0 to 30'],
    ['Sequence', '1.5', 'Sequence must be a whole number'],
  ])('%s %s is refused with its message, and nothing is sent', async (name, value, message) => {
    const user = userEvent.setup();
    const { api } = renderDialog(passport);
    await user.clear(field(name));
    await user.type(field(name), value);
    expect(within(dialog()).getByText(message)).toBeVisible();
    expect(field(name)).toHaveAccessibleDescription(expect.stringContaining(message));
    // Save stays enabled (spec: display name and ID only); saving shows the message instead.
    await user.click(saveButton());
    expect(within(dialog()).getByText(message)).toBeVisible();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('accepts the bounds, and all empty means no expiry', async () => {
    const user = userEvent.setup();
    const { api } = renderDialog(passport, {
      'PUT /api/documenttypes/passport': (call: { body: unknown }) => call.body,
    });
    await user.clear(field('Years'));
    await user.type(field('Months'), '11');
    await user.type(field('Days'), '30');
    await user.click(saveButton());
    await screen.findByText('Document type passport updated');
    expect(api.callsTo('PUT', '/api/documenttypes/passport')[0]?.body).toMatchObject({
      validityPeriod: { months: 11, days: 30 },
    });
  });
});

describe("document type dialog, the 'new, first time used' warning", () => {
  it('marks a tag no document type uses yet, not a used one', async () => {
    const user = userEvent.setup();
    renderDialog();
    const tagInput = await within(dialog()).findByRole('textbox', { name: 'Tags' });
    await user.type(tagInput, 'photo{Enter}');
    await user.type(tagInput, ' Selfie {Enter}');
    const tags = within(dialog()).getByRole('list', { name: 'Tags' });
    const [photo, selfie] = within(tags).getAllByRole('listitem');
    await waitFor(() => expect(selfie).toHaveTextContent('selfienew, first time used'));
    expect(photo).toHaveTextContent(/^photo$/);
  });

  it('removes a tag with its button', async () => {
    const user = userEvent.setup();
    renderDialog(passport);
    await user.click(within(dialog()).getByRole('button', { name: 'Remove tag identity' }));
    expect(within(dialog()).getByRole('list', { name: 'Tags' })).toHaveTextContent(/^travel$/);
  });

  it('marks a service name no document type uses yet', async () => {
    const user = userEvent.setup();
    renderDialog(passport);
    const service1 = within(dialog()).getByRole('textbox', { name: 'Service name 1' });
    expect(service1).toHaveValue('onfido');
    await user.click(within(dialog()).getByRole('button', { name: 'Add API reference' }));
    const service2 = within(dialog()).getByRole('textbox', { name: 'Service name 2' });
    await user.type(service2, 'onfdio');
    await waitFor(() => expect(service2).toHaveAccessibleDescription('new, first time used'));
    expect(service1).not.toHaveAccessibleDescription();
    await user.clear(service2);
    await user.type(service2, 'persona');
    expect(service2).not.toHaveAccessibleDescription();
  });

  it('warns about nothing while the used names are unknown', async () => {
    const user = userEvent.setup();
    renderDialog(null, {
      'GET /api/documenttypes/used-tags': jsonResponse({ message: 'down' }, 500),
    });
    await user.type(within(dialog()).getByRole('textbox', { name: 'Tags' }), 'selfie{Enter}');
    expect(within(dialog()).queryByText('new, first time used')).toBeNull();
  });

  it('refuses a service name JavaScript objects reserve, under its cell', async () => {
    const user = userEvent.setup();
    renderDialog(passport);
    const service1 = within(dialog()).getByRole('textbox', { name: 'Service name 1' });
    await user.clear(service1);
    await user.type(service1, '__proto__');
    await waitFor(() =>
      expect(service1).toHaveAccessibleDescription(
        expect.stringContaining('Service name __proto__ is a name JavaScript objects reserve'),
      ),
    );
  });

  it('removes an API reference row', async () => {
    const user = userEvent.setup();
    renderDialog(passport);
    await user.click(within(dialog()).getByRole('button', { name: 'Remove API reference 1' }));
    expect(within(dialog()).queryByRole('textbox', { name: 'Service name 1' })).toBeNull();
  });
});
