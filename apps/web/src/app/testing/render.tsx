/** Rendering the real route table in tests, signed in as a given user or not. */
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { clearTokens, setTokens } from '@/lib/auth-session';
import { makeTestToken } from '@/lib/test-tokens';
import { AppRoutes } from '../router';
import './dom';

export interface TestUser {
  name?: string;
  upn?: string;
  roles?: string[];
}

export const STAFF_USER: TestUser = {
  name: 'Ada Lovelace',
  upn: 'ada@example.com',
  roles: ['staff'],
};
export const TENANT_USER: TestUser = {
  name: 'Tom Tenant',
  upn: 'tom@tenant.example',
  roles: ['tenant'],
};

/** Signs in with an unsigned token carrying these claims (the app only reads the payload). */
export function signInAs(user: TestUser): string {
  const accessToken = makeTestToken(user);
  setTokens({ accessToken, userEmail: user.upn ?? null });
  return accessToken;
}

export function signOut(): void {
  clearTokens();
}

function LocationProbe() {
  const { pathname } = useLocation();
  return <output data-testid="location">{pathname}</output>;
}

/** Renders the app's routes at a path; `screen.getByTestId('location')` shows the current path. */
export function renderAppAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
      <LocationProbe />
    </MemoryRouter>,
  );
}
