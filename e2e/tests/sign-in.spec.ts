import { expect, test } from '@playwright/test';
import {
  admin,
  continueWithMicrosoftButton,
  expectNoSeriousAccessibilityViolations,
  expectToBeOn,
  goToLogin,
  identityProviderPage,
  outsider,
  sessionStatus,
  signInAs,
  signOut,
  storedAuthTokens,
  submitSignIn,
  userMenuButton,
} from './helpers.ts';

// Spec part 1, section 2 (routes, guard, login screen) and section 4 (authentication); the flow
// is ARCHITECTURE.md's: /authenticated -> identity provider -> /auth/callback -> /dashboard.

test('an unauthenticated visitor to the dashboard is sent to the login screen', async ({
  page,
}) => {
  for (const path of ['/dashboard', '/dashboard/countries']) {
    await page.goto(path);

    await expectToBeOn(page, '/login');
    await expect(continueWithMicrosoftButton(page)).toBeVisible();
  }
});

test('the root address leads an unauthenticated visitor to the login screen', async ({ page }) => {
  await page.goto('/');

  await expectToBeOn(page, '/login');
});

test('an administrator signs in through the identity provider and lands on the dashboard', async ({
  page,
}) => {
  await goToLogin(page);
  await continueWithMicrosoftButton(page).click();

  await expect(identityProviderPage(page)).toBeVisible();
  await page.getByRole('button', { name: admin.email, exact: true }).click();

  await expectToBeOn(page, '/dashboard');
  await expect(userMenuButton(page)).toContainText(admin.name);
  expect(await sessionStatus(page)).toMatchObject({
    status: 200,
    body: { isAuthenticated: true, userEmail: admin.email },
  });
});

test('a staff member signs in with an address typed on the provider page', async ({ page }) => {
  await signInAs(page, 'grace.hopper@example.com');

  await expect(userMenuButton(page)).toContainText('Grace Hopper');
  await expect(userMenuButton(page)).toContainText('grace.hopper@example.com');
});

test('a signed-in user who opens the login screen is sent to the dashboard', async ({ page }) => {
  await signInAs(page, admin.email);

  await page.goto('/login');

  await expectToBeOn(page, '/dashboard');
  await expect(userMenuButton(page)).toBeVisible();
});

test('logging out from the user menu ends the session', async ({ page }) => {
  await signInAs(page, admin.email);

  await signOut(page);

  expect(await storedAuthTokens(page)).toBeNull();
  expect(await sessionStatus(page)).toMatchObject({
    status: 401,
    body: { isAuthenticated: false },
  });
  await page.goto('/dashboard');
  await expectToBeOn(page, '/login');
});

test('an account without a role is refused and gets no session', async ({ page }) => {
  await submitSignIn(page, outsider.email);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Access refused');
  await expect(page.getByText(outsider.email)).toBeVisible();
  expect(new URL(page.url()).pathname).not.toMatch(/^\/dashboard/);
  expect(await sessionStatus(page)).toMatchObject({
    status: 401,
    body: { isAuthenticated: false },
  });

  await page.getByRole('link', { name: 'Back to sign-in' }).click();
  await expectToBeOn(page, '/login');
  await expect(continueWithMicrosoftButton(page)).toBeVisible();
  expect(await storedAuthTokens(page)).toBeNull();

  await page.goto('/dashboard');
  await expectToBeOn(page, '/login');
});

test('the login screen welcomes the user and offers only Microsoft', async ({ page }) => {
  await goToLogin(page);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back');
  await expect(page.getByRole('button')).toHaveText(['Continue with Microsoft']);
  await expect(page.getByRole('link', { name: 'Terms of Service' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
});

test('the login screen has no serious accessibility violation', async ({ page }) => {
  await goToLogin(page);

  await expectNoSeriousAccessibilityViolations(page);
});
