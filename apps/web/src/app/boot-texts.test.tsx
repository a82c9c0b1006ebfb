// Deliberately without '@/lib/i18n' (nor ./testing/dom, which imports it): the login screen must
// render its texts before i18next is loaded, which keeps i18next out of its bundle.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import en from '@/locales/en.json';
import { bootText } from './boot-texts';
import LoginPage from './login-page';

afterEach(() => cleanup());

describe('boot texts', () => {
  it('reads the texts of en.json', () => {
    expect(bootText('login.continueWithMicrosoft')).toBe(en.login.continueWithMicrosoft);
    expect(bootText('team.name')).toBe('Verification Console');
    expect(bootText('common.loading')).toBe('Loading...');
  });

  it('answers the key itself for a missing text', () => {
    expect(bootText('login.nothing' as never)).toBe('login.nothing');
  });

  it('lets the login screen render its texts without i18next', () => {
    render(
      <MemoryRouter>
        <LoginPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Welcome back');
    expect(screen.getByRole('button')).toHaveTextContent('Continue with Microsoft');
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toBeVisible();
  });
});
