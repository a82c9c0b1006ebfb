import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { navigateFullPage } from '@/app/full-page-navigation';
import { getAuthSession } from '@/lib/auth-session';
import { AUTH_TOKENS_KEY } from '@/lib/storage-keys';
import { STAFF_USER, renderAppAt, signInAs, signOut } from '../testing/render';

vi.mock('@/app/full-page-navigation', () => ({ navigateFullPage: vi.fn() }));

beforeEach(() => vi.mocked(navigateFullPage).mockClear());
afterEach(() => signOut());

describe('sidebar footer and user menu', () => {
  it('shows the signed-in user with name, email and initials', async () => {
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    const userButton = await screen.findByRole('button', { name: /Ada Lovelace/ });
    expect(userButton).toHaveTextContent('ada@example.com');
    expect(within(userButton).getByText('AL')).toBeVisible();
  });

  it('uses the first two letters of a one-word name', async () => {
    signInAs({ preferred_username: 'operator', upn: 'op@example.com', roles: ['staff'] } as never);
    renderAppAt('/dashboard');
    const userButton = await screen.findByRole('button', { name: /operator/ });
    expect(within(userButton).getByText('OP')).toBeVisible();
  });

  it('offers the menu items and logs out: tokens cleared, full-page navigation to /signout', async () => {
    const user = userEvent.setup();
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    expect(localStorage.getItem(AUTH_TOKENS_KEY)).not.toBeNull();

    await user.click(await screen.findByRole('button', { name: /Ada Lovelace/ }));
    const menu = await screen.findByRole('menu');
    for (const name of ['Upgrade to Pro', 'Account', 'Billing', 'Notifications', 'Log out']) {
      expect(within(menu).getByRole('menuitem', { name })).toBeVisible();
    }
    await user.click(within(menu).getByRole('menuitem', { name: 'Log out' }));

    expect(localStorage.getItem(AUTH_TOKENS_KEY)).toBeNull();
    expect(getAuthSession().isAuthenticated).toBe(false);
    expect(navigateFullPage).toHaveBeenCalledExactlyOnceWith('/signout');
  });

  it('does nothing for the items without behaviour', async () => {
    const user = userEvent.setup();
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    await user.click(await screen.findByRole('button', { name: /Ada Lovelace/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Billing' }));
    expect(navigateFullPage).not.toHaveBeenCalled();
    expect(getAuthSession().isAuthenticated).toBe(true);
  });

  it('opened by keyboard, its first item has the focus, and Escape gives it back to the button', async () => {
    const user = userEvent.setup();
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    const userButton = await screen.findByRole('button', { name: /Ada Lovelace/ });
    userButton.focus();
    await user.keyboard('{Enter}');
    const first = await screen.findByRole('menuitem', { name: 'Upgrade to Pro' });
    await vi.waitFor(() => expect(first).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Account' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Ada Lovelace/ })).toHaveFocus();
  });

  it('opened by a click, the menu itself has the focus, not an item', async () => {
    const user = userEvent.setup();
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    await user.click(await screen.findByRole('button', { name: /Ada Lovelace/ }));
    const menu = await screen.findByRole('menu');
    await vi.waitFor(() => expect(menu).toHaveFocus());
  });
});
