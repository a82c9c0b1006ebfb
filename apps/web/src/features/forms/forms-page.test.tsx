import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STAFF_USER, signOut } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import { formatDateTime } from '@/lib/format';
import { setUpScreenTests } from '@/test/screen-tests';
import { columnHeaders, confirmDelete } from '@/test/queries';
import { formItem } from './forms-test-data';
import FormsPage from '.';

// The test dialog is another part's: a stand-in shows which form it was opened for.
vi.mock('./form-test-dialog', () => ({
  FormTestDialog: ({ open, formName }: { open: boolean; formName: string | null }) =>
    open ? <div role="dialog" aria-label={`Test dialog of ${formName}`} /> : null,
}));

const LIST = '/svc/formauthoring/list';

const FORMS = [
  formItem(1, 'beta'),
  formItem(2, 'Alpha', '2026-01-10T08:00:00.000Z'),
  formItem(3, 'gamma'),
  // Names are unique on the server; two alike show the order's second rule (latest first).
  formItem(4, 'Alpha', '2026-03-01T09:30:00.000Z'),
];

setUpScreenTests(STAFF_USER);

function renderForms(routes: Parameters<typeof mockApi>[0]) {
  const api = mockApi(routes);
  renderScreen(<FormsPage />, { path: '/dashboard/forms' });
  return { api, user: userEvent.setup() };
}

const table = () => screen.getByRole('table', { name: 'Forms' });
const bodyRows = () => within(table()).getAllByRole('row').slice(1);
const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .slice(0, 4)
    .map((cell) => cell.textContent);

describe('forms list', () => {
  it('says it is loading', async () => {
    renderForms({ [`GET ${LIST}`]: () => new Promise(() => {}) });
    const loading = await screen.findByText('Loading forms data...');
    expect(loading).toHaveAttribute('role', 'status');
    expect(loading).toBeVisible();
  });

  it('lists the forms by name ignoring case, then the latest update first', async () => {
    renderForms({ [`GET ${LIST}`]: FORMS });
    await screen.findByRole('cell', { name: 'gamma' });
    expect(columnHeaders(table())).toEqual(['Name', 'id', 'Created At', 'Updated At', 'Actions']);
    expect(bodyRows().map(cellTexts)).toEqual([
      ['Alpha', '4', formatDateTime(FORMS[3]!.createdAt), formatDateTime(FORMS[3]!.updatedAt)],
      ['Alpha', '2', formatDateTime(FORMS[1]!.createdAt), formatDateTime(FORMS[1]!.updatedAt)],
      ['beta', '1', expect.any(String), expect.any(String)],
      ['gamma', '3', expect.any(String), expect.any(String)],
    ]);
    expect(cellTexts(bodyRows()[0]!)[3]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    const actions = within(bodyRows()[2]!).getAllByRole('button');
    expect(actions.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Copy the id of beta',
      'Test beta',
      'Edit beta',
      'Clone beta',
      'Delete beta',
    ]);
    expect(actions.slice(1).map((button) => button.textContent)).toEqual([
      'Test',
      'Edit',
      'Clone',
      'Delete',
    ]);
    expect(screen.getByRole('button', { name: 'Create New Form' })).toBeEnabled();
    // The spec's order is the list's: the headers do not sort it otherwise.
    expect(within(table()).queryByRole('button', { name: /Name/ })).toBeNull();
  });

  it('says so when there is no form', async () => {
    renderForms({ [`GET ${LIST}`]: [] });
    expect(await screen.findByRole('cell', { name: 'No forms found.' })).toBeVisible();
  });

  it("shows the server's message when loading fails, else 'Failed to fetch forms' and the status, and retries", async () => {
    const { api, user } = renderForms({
      [`GET ${LIST}`]: jsonResponse({ message: 'The forms service is unavailable.' }, 503),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('The forms service is unavailable.');
    api.set(`GET ${LIST}`, new Response('<html>Bad gateway</html>', { status: 502 }));
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Failed to fetch forms: 502')).toBeVisible();
    api.set(`GET ${LIST}`, FORMS);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('cell', { name: 'gamma' })).toBeVisible();
  });

  it('makes no call without a bearer token, and says so', async () => {
    signOut();
    const { api } = renderForms({ [`GET ${LIST}`]: FORMS });
    expect(await screen.findByRole('alert')).toHaveTextContent('Authentication token not found.');
    expect(api.callsTo('GET', LIST)).toHaveLength(0);
  });

  it('copies a form id to the clipboard, with a toast either way', async () => {
    const { user } = renderForms({ [`GET ${LIST}`]: FORMS });
    await user.click(await screen.findByRole('button', { name: 'Copy the id of gamma' }));
    expect(await screen.findByText('Copied to clipboard')).toBeVisible();
    expect(await navigator.clipboard.readText()).toBe('3');

    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('Not allowed'));
    await user.click(screen.getByRole('button', { name: 'Copy the id of beta' }));
    expect(await screen.findByText('Failed to copy to clipboard')).toBeVisible();
  });

  it('opens the test dialog of a form', async () => {
    const { user } = renderForms({ [`GET ${LIST}`]: FORMS });
    await user.click(await screen.findByRole('button', { name: 'Test gamma' }));
    expect(screen.getByRole('dialog', { name: 'Test dialog of gamma' })).toBeInTheDocument();
  });
});

describe('deleting a form', () => {
  it('asks first, deletes, and says so in a toast and the banner', async () => {
    const remaining = FORMS.filter((form) => form.name !== 'gamma');
    const { api, user } = renderForms({
      [`GET ${LIST}`]: FORMS,
      'DELETE /svc/formauthoring/gamma': () => {
        api.set(`GET ${LIST}`, remaining);
        return new Response(null, { status: 204 });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete gamma' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete form?' });
    expect(confirm).toHaveTextContent('This permanently deletes the form gamma.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE', '/svc/formauthoring/gamma')).toHaveLength(0);

    await confirmDelete(user, 'gamma', 'Delete form?');
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'gamma' })).toBeNull());
    expect(api.callsTo('DELETE', '/svc/formauthoring/gamma')).toHaveLength(1);
    expect(screen.getAllByText('Form deleted successfully').length).toBeGreaterThanOrEqual(2);
    const banner = screen
      .getAllByRole('status')
      .find((element) => element.textContent === 'Form deleted successfully');
    expect(banner).toBeDefined();
    await user.click(within(banner!).getByRole('button', { name: 'Dismiss' }));
    expect(banner).not.toBeInTheDocument();
  });

  it.each([
    [
      "the server's message",
      jsonResponse({ message: 'Form gamma is used by tenant profiles.' }, 409),
      'Form gamma is used by tenant profiles.',
    ],
    [
      "'Failed to delete form' and the status",
      new Response('Internal error', { status: 500 }),
      'Failed to delete form: 500',
    ],
  ])('says why a delete failed: %s', async (_case, answer, text) => {
    const { user } = renderForms({
      [`GET ${LIST}`]: FORMS,
      'DELETE /svc/formauthoring/gamma': answer,
    });
    await confirmDelete(user, 'gamma', 'Delete form?');
    await waitFor(() => expect(screen.getAllByText(text)).toHaveLength(2));
    // The banner keeps it after the toast is gone.
    expect(screen.getAllByRole('alert').some((element) => element.textContent === text)).toBe(true);
    expect(screen.getByRole('cell', { name: 'gamma' })).toBeVisible();
  });
});
