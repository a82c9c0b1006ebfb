import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STAFF_USER, TENANT_USER, renderAppAt, signInAs, signOut } from '../testing/render';

afterEach(() => signOut());

async function mainNavigation() {
  return screen.findByRole('navigation', { name: 'Main' });
}

function groupItems(nav: HTMLElement, group: string) {
  const list = within(nav).getByRole('list', { name: group });
  return within(list)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('sidebar navigation', () => {
  it('shows staff the Tenants and Settings groups with their items in order', async () => {
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    const nav = await mainNavigation();

    expect(groupItems(nav, 'Tenants')).toEqual([
      ['Tenants', '/dashboard/tenants'],
      ['Tenant Users', '/dashboard/tenant-users'],
      ['Entities', '/dashboard/entities'],
      ['Entity Users', '/dashboard/entity-users'],
      ['Events', '/dashboard/events'],
    ]);
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
    signInAs(TENANT_USER);
    renderAppAt('/dashboard');
    const nav = await mainNavigation();

    expect(groupItems(nav, 'Tenants')).toEqual([
      ['Entities', '/dashboard/entities'],
      ['Entity Users', '/dashboard/entity-users'],
      ['Events', '/dashboard/events'],
    ]);
    expect(within(nav).queryByRole('list', { name: 'Settings' })).toBeNull();
  });

  it('highlights only the item whose url equals the current path', async () => {
    signInAs(STAFF_USER);
    renderAppAt('/dashboard/countries');
    const nav = await mainNavigation();

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
    signInAs(STAFF_USER);
    renderAppAt('/dashboard/countries');
    const nav = await mainNavigation();

    await user.click(within(nav).getByRole('link', { name: 'Events' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
    expect(within(nav).getByRole('link', { current: 'page' })).toHaveTextContent('Events');
  });

  it('highlights nothing on a page below an item (exact url match)', async () => {
    signInAs(STAFF_USER);
    renderAppAt('/dashboard/email-templates/7');
    const nav = await mainNavigation();
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
