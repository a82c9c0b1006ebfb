import { triggerAsyncId } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import {
  embeddedLoginAction,
  signInWithEmbeddedProvider,
  TestBrowser,
} from '../../test/test-browser.ts';
import { demoAccounts } from './demo-accounts.ts';
import { hashCookieValue, SESSION_COOKIE } from './sessions.ts';

// The real flow over HTTP: /authenticated -> embedded identity provider -> our sign-in page ->
// /auth/callback -> session cookie -> /auth/session.

let testApp: TestApp;
let tenantId: number;

beforeAll(async () => {
  testApp = await createTestApp();
  tenantId = await registerTenantUser(testApp, 'Jane.Doe@Initech.example');
});

afterAll(async () => {
  await testApp?.close();
});

describe('sign-in through the embedded identity provider', () => {
  it('signs an admin in with the demo account button', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    const page = await openSignInPage(browser);

    expect(page.html).toContain('<title>Sign in</title>');
    expect(buttonNames(page.html)).toEqual([
      ...demoAccounts.map((account) => account.email),
      'Sign in',
      'Cancel',
    ]);
    expect(page.html).toMatch(/<label for="email">Email address<\/label>/);

    const callback = await chooseAccount(browser, page, 'admin@example.com');
    expect(callback.status).toBe(302);
    expect(callback.location).toBe('/dashboard');
    expect(callback.setCookie).toMatch(
      new RegExp(`^${SESSION_COOKIE}=[^;]+; Max-Age=28800; Path=/; HttpOnly; SameSite=Lax$`),
    );

    const session = await browser.fetch('/auth/session');
    expect(session.status).toBe(200);
    expect(session.headers.get('cache-control')).toBe('no-store');
    const body = (await session.json()) as {
      isAuthenticated: boolean;
      accessToken: string;
      userEmail: string;
    };
    expect(body).toMatchObject({ isAuthenticated: true, userEmail: 'admin@example.com' });
    const claims = decodeJwt(body.accessToken);
    expect(claims).toMatchObject({
      sub: 'admin@example.com',
      name: 'Ada Admin',
      preferred_username: 'admin@example.com',
      upn: 'admin@example.com',
      email: 'admin@example.com',
      iss: testApp.config.publicUrl,
      aud: testApp.config.publicUrl,
    });
    expect(claims.roles).toEqual(expect.arrayContaining(['admin', 'staff']));
    expect(claims.tid).toBeUndefined();
    expect(claims.exp).toBe((claims.iat ?? 0) + testApp.config.accessTokenTtlSeconds);

    // Signed in already: /authenticated goes straight back to the app.
    const again = await browser.fetch('/authenticated');
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe('/dashboard');
  });

  it('signs a registered tenant user in with the email field', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    const page = await openSignInPage(browser);
    const callback = await chooseAccount(browser, page, '  jane.doe@INITECH.example ');
    expect(callback.status).toBe(302);
    expect(callback.location).toBe('/dashboard');

    const body = (await (await browser.fetch('/auth/session')).json()) as {
      accessToken: string;
      userEmail: string;
    };
    expect(body.userEmail).toBe('jane.doe@initech.example');
    const claims = decodeJwt(body.accessToken);
    expect(claims).toMatchObject({
      name: 'Jane Doe',
      upn: 'jane.doe@initech.example',
      roles: ['tenant'],
      tid: tenantId,
    });
  });

  it('refuses an account without a role and starts no session', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    const page = await openSignInPage(browser);
    const callback = await chooseAccount(browser, page, 'outsider@example.org');

    expect(callback.status).toBe(403);
    expect(callback.setCookie).not.toContain(`${SESSION_COOKIE}=`);
    expect(callback.html).toContain('<title>Access refused</title>');
    expect(callback.html).toContain(
      'The account outsider@example.org is not allowed to use the console.',
    );
    expect(callback.html).toContain('<a href="/login">Back to sign-in</a>');
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();

    const session = await browser.fetch('/auth/session');
    expect(session.status).toBe(401);
    expect(await session.json()).toEqual({ isAuthenticated: false });
  });

  it('re-asks the email field with an error for a malformed address', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    const page = await openSignInPage(browser);
    const response = await browser.postForm(embeddedLoginAction(page.html, page.url), {
      email: 'not-an-<email>',
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Enter an email address such as name@example.com.');
    expect(html).toContain('value="not-an-&lt;email&gt;"');
    expect(html).not.toContain('<email>');
  });

  it('ends on an error page when the user cancels at the identity provider', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    const page = await openSignInPage(browser);
    const cancel = await browser.postForm(page.action.replace(/\/login$/, '/abort'), {});
    const { response } = await browser.follow(cancel, page.action);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Sign-in was cancelled or refused at the identity provider.');
    expect(html).toContain('<a href="/login">Back to sign-in</a>');
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it('signs out: the session row goes, the cookie is cleared, and the provider ends its session', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    await chooseAccount(browser, await openSignInPage(browser), 'staff@example.com');
    expect((await browser.fetch('/auth/session')).status).toBe(200);
    expect(browser.cookie('_session')).toBeDefined();

    const signOut = await browser.fetch('/signout');
    expect(signOut.status).toBe(302);
    const setCookies = signOut.headers.getSetCookie();
    expect(setCookies.find((line) => line.startsWith(`${SESSION_COOKIE}=`))).toMatch(/^[^=]+=;/);
    expect((await browser.fetch('/auth/session')).status).toBe(401);
    const rows = await testApp.database.db.selectFrom('sessions').select('user_email').execute();
    expect(rows.map((row) => row.user_email)).not.toContain('staff@example.com');

    // RP-initiated logout: the provider's end_session_endpoint, with the ID token as hint.
    const endSession = new URL(signOut.headers.get('location') ?? '');
    expect(endSession.origin + endSession.pathname).toBe(
      `${testApp.config.publicUrl}/oidc/session/end`,
    );
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(
      `${testApp.config.publicUrl}/login`,
    );
    expect(endSession.searchParams.get('client_id')).toBe('console');
    const hint = decodeJwt(endSession.searchParams.get('id_token_hint') ?? '');
    expect(hint).toMatchObject({ aud: 'console', email: 'staff@example.com' });

    const { url } = await signOutAtProvider(browser, endSession.href);
    expect(url).toBe(`${testApp.config.publicUrl}/login`);
    expect(browser.cookie('_session')).toBeUndefined();
  });

  it('signs out without a session or hint, and at the provider still comes back to /login', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    const signOut = await browser.fetch('/signout');
    const endSession = new URL(signOut.headers.get('location') ?? '');
    expect(endSession.pathname).toBe('/oidc/session/end');
    expect(endSession.searchParams.has('id_token_hint')).toBe(false);
    // No provider session to end: the provider's page posts itself and sends the browser back.
    const { url } = await signOutAtProvider(browser, endSession.href);
    expect(url).toBe(`${testApp.config.publicUrl}/login`);
  });

  it('says "Signed out" when the provider cannot read the hint (it restarted with new keys)', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    await chooseAccount(browser, await openSignInPage(browser), 'staff@example.com');
    const { privateKey } = await generateKeyPair('RS256');
    const staleHint = await new SignJWT({ sub: 'staff@example.com' })
      .setProtectedHeader({ alg: 'RS256', kid: 'embedded' })
      .setIssuer(`${testApp.config.publicUrl}/oidc`)
      .setAudience('console')
      .sign(privateKey);
    await testApp.database.db
      .updateTable('sessions')
      .set({ id_token_hint: staleHint })
      .where('id_hash', '=', hashCookieValue(browser.cookie(SESSION_COOKIE) ?? ''))
      .execute();

    const signOut = await browser.fetch('/signout');
    const endSession = new URL(signOut.headers.get('location') ?? '');
    expect(endSession.searchParams.get('id_token_hint')).toBe(staleHint);
    // As a browser navigates: it asks for HTML (the provider answers JSON to other clients).
    const page = await browser.fetch(endSession.href, { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(html).toContain('<h1>Signed out</h1>');
    expect(html).toContain('<a href="/login">Back to sign-in</a>');
  });

  it('signs in and out on a database before migration 24: sign-out then names the client only', async () => {
    const older = await createTestApp();
    try {
      await sql`alter table sessions drop column id_token_hint`.execute(older.database.db);
      const browser = new TestBrowser(older.config.publicUrl);
      await signInWithEmbeddedProvider(browser, 'staff@example.com');
      expect(await (await browser.fetch('/auth/session')).json()).toMatchObject({
        userEmail: 'staff@example.com',
      });

      const signOut = await browser.fetch('/signout');
      const endSession = new URL(signOut.headers.get('location') ?? '');
      expect(endSession.pathname).toBe('/oidc/session/end');
      expect(endSession.searchParams.get('client_id')).toBe('console');
      expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(
        `${older.config.publicUrl}/login`,
      );
      expect(endSession.searchParams.has('id_token_hint')).toBe(false);
      expect((await browser.fetch('/auth/session')).status).toBe(401);
    } finally {
      await older.close();
    }
  });

  it('signs in again, as another account, in the same browser after signing out', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    await chooseAccount(browser, await openSignInPage(browser), 'staff@example.com');
    const signOut = await browser.fetch('/signout');
    await signOutAtProvider(browser, signOut.headers.get('location') ?? '');

    const again = await chooseAccount(browser, await openSignInPage(browser), 'admin@example.com');
    expect(again.status).toBe(302);
    expect(again.location).toBe('/dashboard');
    const session = await (await browser.fetch('/auth/session')).json();
    expect(session).toMatchObject({ isAuthenticated: true, userEmail: 'admin@example.com' });
  });

  it('signs two browsers in at once, and leaves promise hooks off once the provider is idle', async () => {
    const signIn = async (email: string) => {
      const browser = new TestBrowser(testApp.config.publicUrl);
      const callback = await chooseAccount(browser, await openSignInPage(browser), email);
      const session = (await (await browser.fetch('/auth/session')).json()) as object;
      return { location: callback.location, session };
    };
    const [admin, staff] = await Promise.all([
      signIn('admin@example.com'),
      signIn('staff@example.com'),
    ]);
    expect(admin).toMatchObject({
      location: '/dashboard',
      session: { userEmail: 'admin@example.com' },
    });
    expect(staff).toMatchObject({
      location: '/dashboard',
      session: { userEmail: 'staff@example.com' },
    });

    // The provider's request context (an AsyncLocalStorage) turns V8's promise hooks on while it
    // runs; left on, every promise of every later API request would pay for them.
    expect(await promiseHooksAreOn()).toBe(false);
  });
});

/** Without promise hooks a promise reaction gets no async id of its own (see node:async_hooks). */
function promiseHooksAreOn(): Promise<boolean> {
  return Promise.resolve().then(() => triggerAsyncId() !== 0);
}

interface SignInPage {
  html: string;
  url: string;
  action: string;
}

async function openSignInPage(browser: TestBrowser): Promise<SignInPage> {
  const start = await browser.fetch('/authenticated');
  expect(start.status).toBe(302);
  const authorizationUrl = new URL(start.headers.get('location') ?? '');
  expect(authorizationUrl.href.startsWith(`${testApp.config.publicUrl}/oidc/auth?`)).toBe(true);
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorizationUrl.searchParams.get('nonce')).toBeTruthy();
  expect(authorizationUrl.searchParams.get('state')).toBeTruthy();

  const { response, url } = await browser.follow(start, '/authenticated');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/html');
  const html = await response.text();
  const page = { html, url, action: '' };
  page.action = embeddedLoginAction(html, url);
  return page;
}

/** Posts the account like a click on its button (or the email field) and follows to the callback. */
async function chooseAccount(browser: TestBrowser, page: SignInPage, email: string) {
  const posted = await browser.postForm(page.action, { email });
  expect(posted.status).toBe(303);
  const { response, hops } = await browser.follow(posted, page.action, '/dashboard');
  expect(hops.some((hop) => new URL(hop.url).pathname === '/auth/callback')).toBe(true);
  return {
    status: response.status,
    location: response.headers.get('location'),
    setCookie:
      response.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`)) ?? '',
    html: response.status === 302 ? '' : await response.text(),
  };
}

/**
 * The embedded provider's sign-out page, sent as its script would: its form (with the provider's
 * anti-forgery token and logout=yes) posted. Returns where the browser ends.
 */
async function signOutAtProvider(browser: TestBrowser, endSessionUrl: string) {
  const page = await browser.fetch(endSessionUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const script = /<script>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
  expect(script).toMatch(/document\.forms\[0\]\.submit\(\)/);
  // The script runs under the Content-Security-Policy only by its hash.
  const digest = createHash('sha256').update(script).digest('base64');
  expect(page.headers.get('content-security-policy')).toContain(`'sha256-${digest}'`);
  const action = /<form[^>]* method="post" action="([^"]+)">/.exec(html)?.[1] ?? '';
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"\/>/g)].map((match) => [
      match[1] ?? '',
      match[2] ?? '',
    ]),
  );
  expect(fields).toMatchObject({ logout: 'yes', xsrf: expect.any(String) });
  const confirmed = await browser.postForm(new URL(action, endSessionUrl).href, fields);
  return browser.follow(confirmed, action);
}

function buttonNames(html: string): string[] {
  return [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((match) => match[1] ?? '');
}

async function registerTenantUser(testApp: TestApp, email: string): Promise<number> {
  const { db } = testApp.database;
  const stamp = { created_by: 'test', updated_by: 'test', updated_at: new Date() };
  await db
    .insertInto('countries')
    .values({ id: 840, alpha2: 'US', alpha3: 'USA', name: 'United States', ...stamp })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const tenant = await db
    .insertInto('tenants')
    .values({ company_name: 'Initech', domicile_country_id: 840, ...stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('tenant_users')
    .values({ email: email.toLowerCase(), tenant_id: tenant.id, ...stamp })
    .execute();
  return tenant.id;
}
