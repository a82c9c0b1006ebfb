import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  KEY_DELETION_MESSAGES,
  KEY_DELETION_REQUIRED_MESSAGE,
  type EntityUser,
  type EntityUserPage,
} from '@console/contracts';
import { STAFF_USER, TENANT_USER, signInAs, type TestUser } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import { getAuthSession } from '@/lib/auth-session';
import i18n from '@/lib/i18n';
import { deleteKeyErrorText } from './api';
import { entityUserName } from './entity-user-name';
import EntityUsersPage from '.';
import { setUpScreenTests } from '@/test/screen-tests';
import { columnHeaders } from '@/test/queries';

const ADMIN_USER: TestUser = { name: 'Ada Admin', upn: 'admin@example.com', roles: ['admin'] };

const FIFTY = 'v'.repeat(50);
const FIFTY_ONE = `${'w'.repeat(47)}XYZW`;

const alice: EntityUser = {
  partyUserId: 'user-alice',
  partyEntityId: 'entity-1',
  entityName: 'Acme Widgets Ltd',
  tenantId: 1,
  type: 0,
  state: 'active',
  email: 'alice@acme.example',
  metadata: { preferredName: 'Ally', givenName: 'Alice', familyName: 'Smith' },
  keys: { 'api key/1': FIFTY_ONE, short: FIFTY },
};
const bob: EntityUser = {
  ...alice,
  partyUserId: 'user-bob',
  type: 1,
  state: 'invited',
  email: 'bob@acme.example',
  metadata: { givenName: 'Bob', familyName: 'Jones' },
  keys: {},
};
const carol: EntityUser = {
  ...alice,
  partyUserId: 'user-carol',
  type: 7,
  email: 'carol@acme.example',
  metadata: {},
  keys: { pin: '1234' },
};

function page(users: EntityUser[]): EntityUserPage {
  return { data: users, totalCount: users.length, offset: 0, limit: 10 };
}

const KEY_PATH = '/api/EntityUser/user-alice/keys/api%20key%2F1';

function renderPage() {
  return renderScreen(<EntityUsersPage />, { path: '/dashboard/entity-users' });
}

type User = ReturnType<typeof userEvent.setup>;

const row = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}`) });

async function showKeys(user: User, name: string, count: number) {
  await user.click(
    within(await screen.findByRole('row', { name: new RegExp(`^${name}`) })).getByRole('button', {
      name: `Show keys (${count})`,
    }),
  );
  return screen.findByRole('list', { name: `Keys of ${name}` });
}

async function deleteKey(user: User, name: string) {
  await user.click(screen.getByRole('button', { name: `Delete key ${name}` }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Delete key?' });
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
}

setUpScreenTests(ADMIN_USER);

describe('entity users screen', () => {
  it('shows name, entity, type, state, email and keys', async () => {
    mockApi({ 'GET /api/EntityUser': page([alice, bob, carol]) });
    renderPage();
    await screen.findByRole('cell', { name: 'Ally' });
    expect(columnHeaders(screen.getByRole('table', { name: 'Entity Users' }))).toEqual([
      'Name',
      'Entity',
      'Type',
      'State',
      'Email',
      'Keys',
    ]);
    const cells = (name: string) =>
      within(row(name))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells('Ally')).toEqual([
      'Ally',
      'Acme Widgets Ltd',
      'primary',
      'active',
      'alice@acme.example',
      'Show keys (2)',
    ]);
    expect(cells('Bob Jones')).toEqual([
      'Bob Jones',
      'Acme Widgets Ltd',
      'standard',
      'invited',
      'bob@acme.example',
      'No keys',
    ]);
    // No name at all: the email; a type other than 0 or 1: the number.
    expect(cells('carol@acme.example').slice(0, 3)).toEqual([
      'carol@acme.example',
      'Acme Widgets Ltd',
      '7',
    ]);
  });

  it('names a user by preferred name, else given and family name, else email, else id', () => {
    expect(entityUserName(alice)).toBe('Ally');
    expect(entityUserName({ ...alice, metadata: { preferredName: ' ', givenName: 'Alice' } })).toBe(
      'Alice',
    );
    expect(entityUserName(bob)).toBe('Bob Jones');
    expect(entityUserName({ ...carol, email: null })).toBe('user-carol');
  });

  it('expands the keys: 50 characters shown whole, 51 as the first 47 and an ellipsis', async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/EntityUser': page([alice]) });
    renderPage();
    const keys = await showKeys(user, 'Ally', 2);
    const items = within(keys).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      `api key/1${'w'.repeat(47)}...`,
      `short${FIFTY}`,
    ]);
    // The whole value is in the title of a shortened one.
    expect(within(items[0]!).getByTitle(FIFTY_ONE)).toBeVisible();
    expect(within(items[1]!).getByText(FIFTY)).not.toHaveAttribute('title');
    await user.click(within(row('Ally')).getByRole('button', { name: 'Hide keys (2)' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Keys of Ally' })).toBeNull());
  });

  it.each([
    ['staff', STAFF_USER],
    ['a tenant user', TENANT_USER],
  ])('shows %s no delete-key control', async (_, who) => {
    signInAs(who);
    const user = userEvent.setup();
    mockApi({ 'GET /api/EntityUser': page([alice]) });
    renderPage();
    const keys = await showKeys(user, 'Ally', 2);
    expect(within(keys).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /Delete key/ })).toBeNull();
  });

  it('shows an admin the delete-key control of every key', async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/EntityUser': page([alice]) });
    renderPage();
    await showKeys(user, 'Ally', 2);
    expect(screen.getByRole('button', { name: 'Delete key api key/1' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Delete key short' })).toBeVisible();
  });
});

describe('deleting a key', () => {
  /** Shows Ally's two keys; the DELETE of the first waits until the test calls `answer`. */
  async function showKeysWithPendingDelete(user: User) {
    let answerDelete: ((response: Response) => void) | undefined;
    const api = mockApi({
      'GET /api/EntityUser': page([alice]),
      [`DELETE ${KEY_PATH}`]: () => new Promise<Response>((resolve) => (answerDelete = resolve)),
    });
    renderPage();
    const keys = await showKeys(user, 'Ally', 2);
    const answer = (response: Response) => {
      // Only once the DELETE was sent is there a request to answer.
      if (!answerDelete) throw new Error('No DELETE was sent yet');
      answerDelete(response);
    };
    return { api, keys, answer };
  }

  it('removes the key at once, calls DELETE with the name encoded, and says so', async () => {
    const user = userEvent.setup();
    const { api, keys, answer } = await showKeysWithPendingDelete(user);
    await deleteKey(user, 'api key/1');
    // Gone before the server answered.
    await waitFor(() => expect(within(keys).getAllByRole('listitem')).toHaveLength(1));
    expect(within(row('Ally')).getByRole('button', { name: 'Hide keys (1)' })).toBeVisible();
    expect(api.callsTo('DELETE', KEY_PATH)).toHaveLength(1);
    answer(new Response(null, { status: 204 }));
    expect(await screen.findByText('Key api key/1 deleted')).toBeVisible();
    expect(within(keys).getAllByRole('listitem')).toHaveLength(1);
  });

  it('reloads the list when the deletion fails: the key comes back', async () => {
    const user = userEvent.setup();
    const { api, keys, answer } = await showKeysWithPendingDelete(user);
    const loads = api.callsTo('GET', '/api/EntityUser').length;
    await deleteKey(user, 'api key/1');
    await waitFor(() => expect(within(keys).getAllByRole('listitem')).toHaveLength(1));
    answer(jsonResponse({ message: 'Database down' }, 500));
    expect(await screen.findByText('Failed to delete key: Database down')).toBeVisible();
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/EntityUser').length).toBeGreaterThan(loads),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Keys of Ally' })).getAllByRole('listitem'),
      ).toHaveLength(2),
    );
  });

  it.each([
    [403, { message: 'Forbidden' }, 'Insufficient privileges to delete keys'],
    [404, { message: 'Key no longer exists' }, 'Key no longer exists'],
    [409, { message: 'Locked by a session' }, 'Failed to delete key: Locked by a session'],
    [500, null, `Failed to delete key: API request to ${KEY_PATH.slice(1)} failed with status 500`],
  ])('a %i answer says its message and keeps the admin signed in', async (status, body, text) => {
    const user = userEvent.setup();
    mockApi({
      'GET /api/EntityUser': page([alice]),
      [`DELETE ${KEY_PATH}`]: jsonResponse(body, status),
    });
    renderPage();
    await showKeys(user, 'Ally', 2);
    await deleteKey(user, 'api key/1');
    expect(await screen.findByText(text)).toBeVisible();
    expect(getAuthSession().isAuthenticated).toBe(true);
  });

  it('a network failure says why', async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /api/EntityUser': page([alice]),
      [`DELETE ${KEY_PATH}`]: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderPage();
    await showKeys(user, 'Ally', 2);
    await deleteKey(user, 'api key/1');
    expect(
      await screen.findByText(
        `Failed to delete key: Network error while fetching ${KEY_PATH.slice(1)}: Failed to fetch`,
      ),
    ).toBeVisible();
  });

  it('anything but an API error is unexpected', () => {
    expect(deleteKeyErrorText(new TypeError('x is undefined'), i18n.t)).toBe(
      'An unexpected error occurred',
    );
  });

  it("says the contract's words", () => {
    expect(i18n.t('entityUsers.deleteKeyErrors.forbidden')).toBe(KEY_DELETION_MESSAGES.forbidden);
    expect(i18n.t('entityUsers.deleteKeyErrors.notFound')).toBe(KEY_DELETION_MESSAGES.notFound);
    expect(i18n.t('entityUsers.deleteKeyErrors.required')).toBe(KEY_DELETION_REQUIRED_MESSAGE);
  });

  it('cancelling the confirmation keeps the key', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/EntityUser': page([alice]) });
    renderPage();
    const keys = await showKeys(user, 'Ally', 2);
    await user.click(screen.getByRole('button', { name: 'Delete key short' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete key?' });
    expect(dialog).toHaveTextContent('This permanently deletes the key short of Ally.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(keys).getAllByRole('listitem')).toHaveLength(2);
    expect(api.calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
  });
});
