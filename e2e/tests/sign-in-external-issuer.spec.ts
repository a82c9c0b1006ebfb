import { expect, test, type Page } from '@playwright/test';
import type { JWTPayload } from 'jose';
import {
  hmacToken,
  OidcTestProvider,
  signingKey,
  unsignedToken,
} from '../../apps/server/test/oidc-test-provider.ts';
import { externalIssuerURL, oidcClientSecret, oidcProviderPort } from '../playwright.config.ts';
import {
  admin,
  continueWithMicrosoftButton,
  expectNoSeriousAccessibilityViolations,
  expectToBeOn,
  goToLogin,
  sessionStatus,
  signOut,
  storedAuthTokens,
  userMenuButton,
} from './helpers.ts';

// Sign-in at an independently written OpenID Connect provider (oauth2-mock-server), standing in
// for Microsoft Entra ID, through Chromium: the console server of this scenario has OIDC_ISSUER
// set to it (playwright.config.ts). The provider signs in at once as the person `signInAs` names.

test.use({ baseURL: externalIssuerURL });
test.describe.configure({ mode: 'serial' });

let provider: OidcTestProvider | undefined;

test.afterAll(async () => {
  await provider?.stop();
});

function theProvider(): OidcTestProvider {
  if (!provider) throw new Error('The provider has not been started');
  return provider;
}

/** Continue with Microsoft, and wait until the browser is back at the console. */
async function continueWithMicrosoft(page: Page): Promise<void> {
  await goToLogin(page);
  await continueWithMicrosoftButton(page).click();
  await page.waitForURL((url) => url.origin === externalIssuerURL && url.pathname !== '/login');
}

async function expectSignInPage(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign-in failed', level: 1 })).toBeVisible();
  await expect(page.getByText(text)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to sign-in' })).toHaveAttribute(
    'href',
    '/login',
  );
}

async function expectNoSession(page: Page): Promise<void> {
  expect(await sessionStatus(page)).toMatchObject({
    status: 401,
    body: { isAuthenticated: false },
  });
  const cookies = await page.context().cookies(externalIssuerURL);
  expect(cookies.map((cookie) => cookie.name)).not.toContain('console_session');
}

test('a provider that is down when the console starts gives a clear page, and sign-in works once it is up', async ({
  page,
}) => {
  await continueWithMicrosoft(page);
  await expectSignInPage(page, 'The identity provider cannot be reached right now.');
  await expectNoSeriousAccessibilityViolations(page);
  await expectNoSession(page);

  provider = await OidcTestProvider.start(oidcProviderPort);
  provider.signInAs({ name: admin.name, email: admin.email, email_verified: true });
  await page.getByRole('link', { name: 'Back to sign-in' }).click();
  await continueWithMicrosoftButton(page).click();

  await expectToBeOn(page, '/dashboard');
  await expect(userMenuButton(page)).toContainText(admin.name);
});

test('signs in with the authorization code flow and PKCE, asking the configured prompt', async ({
  page,
}) => {
  theProvider().signInAs({ name: 'Sam Staff', email: 'staff@example.com', email_verified: true });
  const authorization = page.waitForRequest((request) => request.url().includes('/authorize?'));

  await continueWithMicrosoft(page);

  const query = new URL((await authorization).url()).searchParams;
  expect(query.get('response_type')).toBe('code');
  expect(query.get('code_challenge_method')).toBe('S256');
  expect(query.get('prompt')).toBe('select_account');
  expect(query.get('redirect_uri')).toBe(`${externalIssuerURL}/auth/callback`);
  await expectToBeOn(page, '/dashboard');
  expect(await sessionStatus(page)).toMatchObject({
    status: 200,
    body: { isAuthenticated: true, userEmail: 'staff@example.com' },
  });
});

test.describe('refuses an ID token that does not hold, and starts no session', () => {
  const withRole = (payload: JWTPayload) => ({
    ...payload,
    email: admin.email,
    email_verified: true,
  });
  const forgeries = {
    'signed by a key the provider never published': async (payload: JWTPayload) =>
      (await signingKey('RS256')).sign(withRole(payload)),
    "signed by an unpublished key under the published key's kid": async (
      payload: JWTPayload,
      header: Record<string, unknown>,
    ) => (await signingKey('RS256')).sign(withRole(payload), { kid: header.kid }),
    'with alg none': async (payload: JWTPayload) => unsignedToken(withRole(payload)),
    'signed with HS256 and the client secret': (payload: JWTPayload) =>
      hmacToken(withRole(payload), oidcClientSecret),
  };
  for (const [name, forge] of Object.entries(forgeries)) {
    test(name, async ({ page }) => {
      theProvider().forgeNextIdToken(({ payload, header }) => forge(payload, header));
      await continueWithMicrosoft(page);
      await expectSignInPage(page, /could not be verified|did not confirm the sign-in/);
      await expectNoSession(page);
    });
  }

  const wrongClaims = {
    'for another client (aud)': { aud: 'another-client' },
    'from another issuer (iss)': { iss: 'https://login.microsoftonline.com/other/v2.0' },
    'that has expired': { exp: Math.floor(Date.now() / 1000) - 3600 },
    "with another sign-in's nonce": { nonce: 'the-nonce-of-another-sign-in' },
  };
  for (const [name, claims] of Object.entries(wrongClaims)) {
    test(name, async ({ page }) => {
      theProvider().signInAs({ ...claims, email: admin.email, email_verified: true });
      await continueWithMicrosoft(page);
      await expectSignInPage(page, 'The identity provider did not confirm the sign-in.');
      await expectNoSession(page);
    });
  }
});

test('refuses a replayed callback: each sign-in state is used once', async ({ page }) => {
  theProvider().signInAs({ email: admin.email, email_verified: true });
  const callback = page.waitForRequest((request) => request.url().includes('/auth/callback?'));
  await continueWithMicrosoft(page);
  await expectToBeOn(page, '/dashboard');
  const callbackUrl = (await callback).url();
  await signOut(page);

  await page.goto(callbackUrl);

  await expectSignInPage(page, /not started in this browser, or it was already finished/);
  await expectNoSession(page);
});

test.describe('Microsoft Entra ID claims', () => {
  test('a person whose address is only in preferred_username signs in by it', async ({ page }) => {
    theProvider().signInAs({ name: 'Sam Staff', preferred_username: 'staff@example.com' });
    await continueWithMicrosoft(page);
    await expectToBeOn(page, '/dashboard');
    await expect(userMenuButton(page)).toContainText('staff@example.com');
  });

  test('a person whose address is only in upn signs in by it', async ({ page }) => {
    theProvider().signInAs({ name: 'Sam Staff', upn: 'staff@example.com' });
    await continueWithMicrosoft(page);
    await expectToBeOn(page, '/dashboard');
    await expect(userMenuButton(page)).toContainText('staff@example.com');
  });

  test("an unverified email claim of an admin's address does not make its holder admin", async ({
    page,
  }) => {
    theProvider().signInAs({
      name: 'Mallory',
      email: admin.email,
      preferred_username: 'mallory@attacker.example',
    });
    await continueWithMicrosoft(page);
    await expect(page.getByRole('heading', { name: 'Access refused' })).toBeVisible();
    await expect(page.getByText('mallory@attacker.example')).toBeVisible();
    await expectNoSession(page);
  });
});

test('Log out ends the session at the provider too and comes back to the login screen', async ({
  page,
}) => {
  theProvider().signInAs({ name: admin.name, email: admin.email, email_verified: true });
  await continueWithMicrosoft(page);
  await expectToBeOn(page, '/dashboard');
  const endSession = page.waitForRequest((request) => request.url().includes('/endsession?'));

  await signOut(page);

  const query = new URL((await endSession).url()).searchParams;
  expect(query.get('post_logout_redirect_uri')).toBe(`${externalIssuerURL}/login`);
  expect(query.get('client_id')).toBe('console');
  expect(query.get('id_token_hint')?.split('.')).toHaveLength(3);
  expect(await storedAuthTokens(page)).toBeNull();
  await expectNoSession(page);
});

test('a provider that goes down after start gives a clear page, and recovers without a restart', async ({
  page,
}) => {
  const provider = theProvider();
  provider.signInAs({ name: admin.name, email: admin.email, email_verified: true });
  await provider.pause();
  try {
    await continueWithMicrosoft(page);
    await expectSignInPage(page, 'The identity provider cannot be reached right now.');
    await expectNoSession(page);
  } finally {
    await provider.resume();
  }

  await page.getByRole('link', { name: 'Back to sign-in' }).click();
  await continueWithMicrosoftButton(page).click();
  await expectToBeOn(page, '/dashboard');
});
