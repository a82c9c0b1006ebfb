import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { STAFF_USER, TENANT_USER, renderAppAt, signInAs, signOut } from './testing/render';

afterEach(() => signOut());

describe('sign-in guards', () => {
  it('sends an unauthenticated user from a dashboard route to the login screen', async () => {
    renderAppAt('/dashboard/countries');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
  });

  it('sends an unauthenticated user at / to the login screen (via /dashboard)', async () => {
    renderAppAt('/');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  });

  it('sends an authenticated user going to the login screen to the dashboard', async () => {
    signInAs(STAFF_USER);
    renderAppAt('/login');
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Welcome to the administration console',
      }),
    ).toBeVisible();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/);
    expect(screen.queryByRole('button', { name: 'Continue with Microsoft' })).toBeNull();
  });

  it('redirects / to /dashboard for a signed-in user', async () => {
    signInAs(STAFF_USER);
    renderAppAt('/');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
  });

  it('sends the user to the login screen when the session ends', async () => {
    signInAs(STAFF_USER);
    renderAppAt('/dashboard/countries');
    expect(await screen.findByRole('heading', { level: 1, name: 'Countries' })).toBeVisible();
    signOut();
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
  });
});

describe('role guard', () => {
  it('lets staff open a staff screen', async () => {
    signInAs(STAFF_USER);
    renderAppAt('/dashboard/countries');
    expect(await screen.findByRole('heading', { level: 1, name: 'Countries' })).toBeVisible();
  });

  it('lets an admin (without an explicit staff role) open a staff screen', async () => {
    signInAs({ name: 'Root', upn: 'root@example.com', roles: ['admin'] });
    renderAppAt('/dashboard/migrations');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Database Migrations' }),
    ).toBeVisible();
  });

  it.each([
    '/dashboard/countries',
    '/dashboard/tenants',
    '/dashboard/email-templates',
    '/dashboard/email-templates/new',
    '/dashboard/audit-log',
    '/fatf/data',
  ])('shows a tenant user the not-available page at %s', async (path) => {
    signInAs(TENANT_USER);
    renderAppAt(path);
    expect(await screen.findByText('This page is not available for your account.')).toBeVisible();
    expect(screen.getByTestId('location')).toHaveTextContent(path);
  });

  it.each([
    ['/dashboard', 'Welcome to the administration console'],
    ['/dashboard/entities', 'Entities'],
    ['/dashboard/entity-users', 'Entity Users'],
    ['/dashboard/events', 'Events'],
  ])('lets a tenant user open %s', async (path, title) => {
    signInAs(TENANT_USER);
    renderAppAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeVisible();
    expect(screen.queryByText('This page is not available for your account.')).toBeNull();
  });
});
