import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { TestBrowser } from '../../test/test-browser.ts';
import { SESSION_COOKIE } from './sessions.ts';
import { SIGN_IN_COOKIE } from './routes.ts';

// Every way a sign-in can fail ends on an HTML page with a way back to /login.

let testApp: TestApp;
/** Configured with an external issuer where nothing listens. */
let unreachable: TestApp;
/** Allows 3 sign-in requests a minute; its own database, as the counters are shared in one. */
let limited: TestApp;

beforeAll(async () => {
  testApp = await createTestApp();
  unreachable = await createTestApp(
    {
      oidc: {
        kind: 'external',
        // Port 1 (tcpmux) is never served here, so the connection is refused at once. (A port
        // freed by a probe could meanwhile be taken by another suite's server, and a TLS hello
        // to a plain HTTP server hangs instead of failing.)
        issuer: 'https://127.0.0.1:1/tenant/v2.0',
        clientId: 'console',
        clientSecret: 'secret',
        scopes: 'openid profile email',
        prompt: undefined,
        allowedTenantIds: [],
      },
    },
    { database: testApp.database },
  );
  limited = await createTestApp({ signInRateLimitPerMinute: 3 });
});

afterAll(async () => {
  await limited?.close();
  await unreachable?.close();
  await testApp?.close();
});

/** Starts a sign-in and returns the browser (holding the sign-in cookie) and the state sent. */
async function startSignIn() {
  const browser = new TestBrowser(testApp.config.publicUrl);
  const response = await browser.fetch('/authenticated');
  const state = new URL(response.headers.get('location') ?? '').searchParams.get('state') ?? '';
  return { browser, state, response };
}

/** Goes through the embedded provider as `email` and returns the callback URL it redirects to. */
async function callbackUrlFor(email: string) {
  const { browser, response } = await startSignIn();
  const { response: page, url } = await browser.follow(response, '/authenticated');
  const action = /action="([^"]+\/login)"/.exec(await page.text())?.[1] ?? '';
  const posted = await browser.postForm(new URL(action, url).href, { email });
  const { url: callbackUrl } = await browser.follow(posted, action, '/auth/callback');
  return { browser, callbackUrl: new URL(callbackUrl) };
}

async function expectProblemPage(response: Response, status: number, text: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toContain('text/html');
  const html = await response.text();
  expect(html).toContain(text);
  expect(html).toContain('<a href="/login">Back to sign-in</a>');
  expect(html).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
  expect(response.headers.getSetCookie().join()).not.toMatch(new RegExp(`${SESSION_COOKIE}=[^;]`));
  return html;
}

describe('the sign-in callback refuses', () => {
  it('an unknown state', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    browser.setCookie(SIGN_IN_COOKIE, 'made-up', '/auth/callback');
    const response = await browser.fetch('/auth/callback?code=abc&state=made-up');
    await expectProblemPage(response, 400, 'This sign-in has expired or was already used.');
  });

  it('a state that is not the one this browser started with', async () => {
    const { browser } = await startSignIn();
    const response = await browser.fetch('/auth/callback?code=abc&state=another-state');
    await expectProblemPage(response, 400, 'This sign-in was not started in this browser');
  });

  it('a genuine state arriving in a browser that did not start the sign-in (login CSRF)', async () => {
    const { callbackUrl } = await callbackUrlFor('admin@example.com');
    const victim = new TestBrowser(testApp.config.publicUrl);
    const response = await victim.fetch(callbackUrl.href);
    await expectProblemPage(response, 400, 'This sign-in was not started in this browser');
    expect(victim.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it('a callback without state', async () => {
    const response = await new TestBrowser(testApp.config.publicUrl).fetch('/auth/callback');
    await expectProblemPage(response, 400, 'This sign-in was not started in this browser');
  });

  it('an access_denied answer of the identity provider', async () => {
    const { browser, state } = await startSignIn();
    const response = await browser.fetch(`/auth/callback?error=access_denied&state=${state}`);
    await expectProblemPage(
      response,
      400,
      'Sign-in was cancelled or refused at the identity provider.',
    );
    // The attempt is spent: the same state cannot be used again.
    const attempts = await testApp.database.db
      .selectFrom('sign_in_attempts')
      .where('state', '=', state)
      .select('state')
      .execute();
    expect(attempts).toEqual([]);
  });

  it('another error answer, without echoing its description', async () => {
    const response = await new TestBrowser(testApp.config.publicUrl).fetch(
      '/auth/callback?error=server_error&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
    );
    const html = await expectProblemPage(
      response,
      400,
      'The identity provider could not sign you in.',
    );
    expect(html).not.toContain('<script>');
  });

  it('a code the identity provider does not accept (token exchange fails)', async () => {
    const { browser, callbackUrl } = await callbackUrlFor('admin@example.com');
    callbackUrl.searchParams.set('code', 'not-the-code');
    const response = await browser.fetch(callbackUrl.href);
    await expectProblemPage(response, 502, 'The identity provider did not confirm the sign-in.');
  });

  it('a callback replayed after it was used', async () => {
    const { browser, callbackUrl } = await callbackUrlFor('admin@example.com');
    const first = await browser.fetch(callbackUrl.href);
    expect(first.status).toBe(302);
    browser.setCookie(
      SIGN_IN_COOKIE,
      callbackUrl.searchParams.get('state') ?? '',
      '/auth/callback',
    );
    const replay = await browser.fetch(callbackUrl.href);
    await expectProblemPage(replay, 400, 'This sign-in has expired or was already used.');
  });

  it('duplicated parameters', async () => {
    const response = await new TestBrowser(testApp.config.publicUrl).fetch(
      '/auth/callback?state=a&state=b',
    );
    await expectProblemPage(response, 400, 'This sign-in request is not valid or has expired.');
  });
});

describe('an identity provider that cannot be reached', () => {
  it('ends /authenticated on a 502 page, at every attempt', async () => {
    const browser = new TestBrowser(unreachable.config.publicUrl);
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await browser.fetch('/authenticated');
      await expectProblemPage(response, 502, 'The identity provider cannot be reached right now.');
    }
    // No embedded provider is mounted with an external issuer.
    expect((await browser.fetch('/oidc/.well-known/openid-configuration')).status).toBe(404);
  });
});

describe('rate limit of sign-in', () => {
  it('answers 429 past the limit per minute on /authenticated and /auth/callback', async () => {
    const browser = new TestBrowser(limited.config.publicUrl);
    for (let request = 0; request < 3; request++) {
      expect((await browser.fetch('/authenticated')).status).toBe(302);
    }
    const refused = await browser.fetch('/authenticated');
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('Too many sign-in attempts');

    for (let request = 0; request < 3; request++) {
      expect((await browser.fetch('/auth/callback')).status).toBe(400);
    }
    expect((await browser.fetch('/auth/callback')).status).toBe(429);
    // The embedded provider's sign-in page too (no interaction cookie here: 400 until limited).
    for (let request = 0; request < 3; request++) {
      expect((await browser.fetch('/oidc/interaction/unknown')).status).toBe(400);
    }
    expect((await browser.fetch('/oidc/interaction/unknown')).status).toBe(429);
    // The session status is not limited.
    expect((await browser.fetch('/auth/session')).status).toBe(401);
  });
});
