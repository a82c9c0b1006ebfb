import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  STAFF_USER,
  TENANT_USER,
  renderAppAt,
  signInAs,
  signOut,
  type TestUser,
} from '../testing/render';

afterEach(() => signOut());

async function mainNavigation() {
  return screen.findByRole('navigation', { name: 'Main' });
}

/** Signs in as `user`, opens the app at `path` and waits for the sidebar's navigation. */
async function navigationAs(user: TestUser, path: string) {
  signInAs(user);
  renderAppAt(path);
  return mainNavigation();
}

function groupItems(nav: HTMLElement, group: string) {
  const list = within(nav).getByRole('list', { name: group });
  return within(list)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

/** The staff's Tenants group as [label, href] pairs, in order. */
const TENANTS_GROUP = [
  ['Tenants', '/dashboard/tenants'],
  ['Tenant Users', '/dashboard/tenant-users'],
  ['Entities', '/dashboard/entities'],
  ['Entity Users', '/dashboard/entity-users'],
  ['Events', '/dashboard/events'],
  ['Audit Log', '/dashboard/audit-log'],
];

describe('sidebar navigation', () => {
  it('shows staff the Tenants and Settings groups with their items in order', async () => {
    const nav = await navigationAs(STAFF_USER, '/dashboard');

    expect(groupItems(nav, 'Tenants')).toEqual(TENANTS_GROUP);
    expect(groupItems(nav, 'Settings')).toEqual([
      ['Countries', '/dashboard/countries'],
      ['Document Types', '/dashboard/document-types'],
      ['Email Settings', '/dashboard/email-settings'],
      ['Email Templates', '/dashboard/email-templates'],
      ['Forms', '/dashboard/forms'],
      ['Form Fields', '/dashboard/form-fields'],
      ['Database Migrations', '/dashboard/migrations'],
      ['Database Scripts', '/dashboard/database-scripts'],
    ]);
  });

  it('shows a tenant user only the tenant-portal items', async () => {
    const nav = await navigationAs(TENANT_USER, '/dashboard');

    // Entities, Entity Users and Events; not the Audit Log (staff only).
    expect(groupItems(nav, 'Tenants')).toEqual(TENANTS_GROUP.slice(2, 5));
    expect(within(nav).queryByRole('list', { name: 'Settings' })).toBeNull();
  });

  it('highlights only the item whose url equals the current path', async () => {
    const nav = await navigationAs(STAFF_USER, '/dashboard/countries');

    const current = within(nav).getByRole('link', { current: 'page' });
    expect(current).toHaveTextContent('Countries');
    expect(current).toHaveAttribute('data-active', 'true');
    for (const link of within(nav).getAllByRole('link')) {
      if (link !== current) {
        expect(link).not.toHaveAttribute('aria-current');
        expect(link).toHaveAttribute('data-active', 'false');
      }
    }
  });

  it('moves the highlight when an item is followed', async () => {
    const user = userEvent.setup();
    const nav = await navigationAs(STAFF_USER, '/dashboard/countries');

    await user.click(within(nav).getByRole('link', { name: 'Events' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
    expect(within(nav).getByRole('link', { current: 'page' })).toHaveTextContent('Events');
  });

  it('highlights nothing on a page below an item (exact url match)', async () => {
    const nav = await navigationAs(STAFF_USER, '/dashboard/email-templates/7');
    expect(within(nav).queryByRole('link', { current: 'page' })).toBeNull();
  });

  it('shows the fixed team with its plan', async () => {
    const user = userEvent.setup();
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    const teamButton = await screen.findByRole('button', { name: /Verification Console/ });
    expect(teamButton).toHaveTextContent('Enterprise');

    await user.click(teamButton);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Verification Console' })).toBeVisible();
    await user.click(within(menu).getByRole('menuitem', { name: 'Add team' }));
    expect(screen.getByRole('button', { name: /Verification Console/ })).toHaveTextContent(
      'Enterprise',
    );
  });
});
