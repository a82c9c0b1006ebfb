import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { navigateFullPage } from './full-page-navigation';
import { renderAppAt, signOut } from './testing/render';

vi.mock('./full-page-navigation', () => ({ navigateFullPage: vi.fn() }));

beforeEach(() => vi.mocked(navigateFullPage).mockClear());
afterEach(() => signOut());

describe('login screen', () => {
  it('welcomes the user in a main landmark', async () => {
    renderAppAt('/login');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Welcome back' });
    expect(screen.getByRole('main')).toContainElement(heading);
    expect(
      screen.getByText('Sign in to the administration console with your work account.'),
    ).toBeVisible();
  });

  it('has one button, which starts sign-in by full-page navigation to /authenticated', async () => {
    const user = userEvent.setup();
    renderAppAt('/login');
    const button = await screen.findByRole('button', { name: 'Continue with Microsoft' });
    expect(screen.getAllByRole('button')).toEqual([button]);

    await user.click(button);
    expect(navigateFullPage).toHaveBeenCalledExactlyOnceWith('/authenticated');
  });

  it('links to the terms of service and the privacy policy (full-page links)', async () => {
    renderAppAt('/login');
    expect(await screen.findByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/docs/terms',
    );
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/docs/privacy',
    );
  });
});
