import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { decodeJwt, type JWTPayload } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExternalIssuerConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { expectRefusedSignInAudited } from '../../test/recorded-events.ts';
import { TestBrowser } from '../../test/test-browser.ts';
import {
  hmacToken,
  OidcTestProvider,
  signingKey,
  unsignedToken,
} from '../../test/oidc-test-provider.ts';
import { RelyingParty } from './relying-party.ts';
import { hashCookieValue, SESSION_COOKIE } from './sessions.ts';
import { SignInError } from './sign-in-error.ts';

// Sign-in against an independently written OpenID Connect provider (oauth2-mock-server), as an
// operator would try before pointing the console at Microsoft Entra ID.

const CLIENT_SECRET = 'the-client-secret-of-the-console';
const DIRECTORY = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const OTHER_DIRECTORY = '9188040d-6c67-4c5b-b112-36a304b66dad';
const NOT_VERIFIED = 'could not be verified, so you were not signed in';

let provider: OidcTestProvider;
let testApp: TestApp;
/** Admits only people of DIRECTORY (OIDC_ALLOWED_TENANT_IDS). */
let oneDirectory: TestApp;

function issuerConfig(overrides: Partial<ExternalIssuerConfig> = {}): ExternalIssuerConfig {
  return {
    kind: 'external',
    issuer: provider.url,
    clientId: 'console',
    clientSecret: CLIENT_SECRET,
    scopes: 'openid profile email',
    prompt: 'select_account',
    allowedTenantIds: [],
    ...overrides,
  };
}

beforeAll(async () => {
  provider = await OidcTestProvider.start();
  testApp = await createTestApp({ oidc: issuerConfig() });
  oneDirectory = await createTestApp(
    { oidc: issuerConfig({ allowedTenantIds: [DIRECTORY] }) },
    { database: testApp.database },
  );
});

afterAll(async () => {
  await oneDirectory?.close();
  await testApp?.close();
  await provider?.stop();
});

beforeEach(() => {
  provider.signInAs({ name: 'Ada Admin', email: 'admin@example.com', email_verified: true });
});

/**
 * The whole flow as a browser does it: /authenticated, the provider's authorization endpoint
 * (which signs in at once), the callback. Returns the callback's answer and the browser.
 */
async function signIn(app: TestApp = testApp) {
  // A browser of its own name, to find its refused sign-in in the audit log.
  const userAgent = `sign-in-test/${crypto.randomUUID()}`;
  const browser = new TestBrowser(app.config.publicUrl, userAgent);
  const start = await browser.fetch('/authenticated');
  if (start.status !== 302) {
    return { browser, userAgent, response: start, authorizationUrl: undefined };
  }
  const authorizationUrl = new URL(start.headers.get('location') ?? '');
  const authorized = await browser.fetch(authorizationUrl.href);
  const callbackUrl = authorized.headers.get('location') ?? '';
  const response = await browser.fetch(callbackUrl);
  return { browser, userAgent, response, authorizationUrl, callbackUrl };
}

/** The refused sign-in is in the audit log, with its address, browser and `reason`. */
const expectAudited = (result: Awaited<ReturnType<typeof signIn>>, reason: RegExp) =>
  expectRefusedSignInAudited(testApp.database.db, result.userAgent, reason);

async function sessionOf(browser: TestBrowser) {
  const response = await browser.fetch('/auth/session');
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function expectRefused(
  result: Awaited<ReturnType<typeof signIn>>,
  status: number,
  text: string,
) {
  expect(result.response.status).toBe(status);
  const html = await result.response.text();
  expect(html).toContain(text);
  expect(html).toContain('<a href="/login">Back to sign-in</a>');
  expect(result.browser.cookie(SESSION_COOKIE)).toBeUndefined();
  expect((await sessionOf(result.browser)).status).toBe(401);
}

describe('sign-in at an external OpenID Connect provider', () => {
  it('signs in with the authorization code flow, PKCE, state, nonce and the configured prompt', async () => {
    const jwksFetchesBefore = provider.requests('/jwks');
    const result = await signIn();

    const query = result.authorizationUrl?.searchParams;
    expect(query?.get('response_type')).toBe('code');
    expect(query?.get('code_challenge_method')).toBe('S256');
    expect(query?.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(query?.get('state')).toBeTruthy();
    expect(query?.get('nonce')).toBeTruthy();
    expect(query?.get('prompt')).toBe('select_account');
    expect(result.response.status).toBe(302);
    expect(result.response.headers.get('location')).toBe('/dashboard');
    expect(await sessionOf(result.browser)).toMatchObject({
      status: 200,
      body: { isAuthenticated: true, userEmail: 'admin@example.com' },
    });
    // The ID token's signature was checked with the provider's published keys.
    expect(provider.requests('/jwks')).toBe(jwksFetchesBefore + 1);
  });

  describe('refuses an ID token the provider did not sign as it publishes, with no session', () => {
    type Forge = (payload: JWTPayload, header: Record<string, unknown>) => Promise<string>;
    // Each forgery, and the reason the audit log gives (openid-client refuses `alg` itself).
    const forgeries: Record<string, [Forge, RegExp]> = {
      'signed by an unpublished key with an unknown kid': [
        async (payload) => (await signingKey('RS256')).sign(payload),
        /^ID token refused: signed by a key the issuer does not publish$/,
      ],
      "signed by an unpublished key under the published key's kid": [
        async (payload, header) => (await signingKey('RS256')).sign(payload, { kid: header.kid }),
        /^ID token refused: its signature does not verify$/,
      ],
      'with alg none': [async (payload) => unsignedToken(payload), /unexpected JWT "alg"/],
      'signed with HS256 and the client secret': [
        (payload) => hmacToken(payload, CLIENT_SECRET),
        /unexpected JWT "alg"/,
      ],
    };
    for (const [name, [forge, reason]] of Object.entries(forgeries)) {
      it(name, async () => {
        const sessionsBefore = await countSessions();
        provider.forgeNextIdToken(({ header, payload }) =>
          forge({ ...payload, email: 'admin@example.com', email_verified: true }, header),
        );

        const result = await signIn();
        await expectRefused(result, 502, 'Sign-in failed');
        expect(await countSessions()).toBe(sessionsBefore);
        await expectAudited(result, reason);
      });
    }
  });

  describe('refuses an ID token with the wrong claims, signed with the published key', () => {
    const cases = {
      'for another client (aud)': [{ aud: 'another-client' }, /"aud"/],
      'from another issuer (iss)': [{ iss: 'https://login.example.test/other/v2.0' }, /"iss"/],
      'that has expired (exp)': [{ exp: Math.floor(Date.now() / 1000) - 3600 }, /"exp"/],
      "with another sign-in's nonce": [{ nonce: 'a-nonce-of-another-sign-in' }, /"nonce"/],
    } as const;
    for (const [name, [claims, reason]] of Object.entries(cases)) {
      it(name, async () => {
        provider.signInAs({ email: 'admin@example.com', email_verified: true, ...claims });
        const result = await signIn();
        await expectRefused(result, 502, 'Sign-in failed');
        await expectAudited(result, reason);
      });
    }
  });

  it('refuses a replayed callback (state used once)', async () => {
    const first = await signIn();
    expect(first.response.status).toBe(302);
    const replay = await first.browser.fetch(first.callbackUrl ?? '');
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain(
      'not started in this browser, or it was already finished',
    );
    await expectAudited(first, /^Sign-in callback state does not match the browser$/);
  });

  describe('Entra-shaped claims', () => {
    it('names the person by preferred_username when there is no email', async () => {
      provider.signInAs({ name: 'Sam Staff', preferred_username: 'Staff@Example.com' });
      const { browser } = await signIn();
      expect((await sessionOf(browser)).body).toMatchObject({ userEmail: 'staff@example.com' });
    });

    it('names the person by upn when that is the only address', async () => {
      provider.signInAs({ name: 'Sam Staff', upn: 'staff@example.com' });
      const { browser } = await signIn();
      expect((await sessionOf(browser)).body).toMatchObject({ userEmail: 'staff@example.com' });
    });

    it("never grants an admin's access by an email the provider does not vouch for", async () => {
      provider.signInAs({
        name: 'Mallory',
        email: 'admin@example.com',
        preferred_username: 'mallory@attacker.example',
      });
      const result = await signIn();
      await expectRefused(result, 403, 'mallory@attacker.example');
      const row = await expectAudited(result, /^no role$/);
      expect(row).toMatchObject({ actor: 'mallory@attacker.example' });
    });

    describe('asks userinfo when the ID token names nobody, and takes each address from its own source', () => {
      it("never lets userinfo's email_verified vouch for the ID token's email", async () => {
        provider.signInAs({ email: 'admin@example.com' }, { email_verified: true });
        await expectRefused(await signIn(), 400, 'did not share an email address');
        provider.signInAs(
          { email: 'admin@example.com' },
          { email_verified: true, preferred_username: 'mallory@attacker.example' },
        );
        await expectRefused(await signIn(), 403, 'mallory@attacker.example');
      });

      it("never lets the ID token's email_verified vouch for userinfo's email", async () => {
        provider.signInAs({ email_verified: true }, { email: 'admin@example.com' });
        await expectRefused(await signIn(), 400, 'did not share an email address');
      });

      it('signs in by the address userinfo vouches for itself', async () => {
        provider.signInAs(
          { name: 'Sam Staff', email: 'admin@example.com' },
          { email: 'staff@example.com', email_verified: true },
        );
        const userInfoRequests = provider.requests('/userinfo');
        const { browser } = await signIn();
        expect(provider.requests('/userinfo')).toBe(userInfoRequests + 1);
        expect((await sessionOf(browser)).body).toMatchObject({ userEmail: 'staff@example.com' });
      });
    });

    it('admits only the allowed directories (tid) when OIDC_ALLOWED_TENANT_IDS is set', async () => {
      provider.signInAs({ preferred_username: 'admin@example.com', tid: DIRECTORY });
      expect((await signIn(oneDirectory)).response.headers.get('location')).toBe('/dashboard');

      provider.signInAs({ preferred_username: 'admin@example.com', tid: OTHER_DIRECTORY });
      const otherDirectory = await signIn(oneDirectory);
      await expectRefused(otherDirectory, 403, 'belongs to a directory');
      await expectAudited(otherDirectory, /not in OIDC_ALLOWED_TENANT_IDS/);
      provider.signInAs({ preferred_username: 'admin@example.com' });
      const noDirectory = await signIn(oneDirectory);
      await expectRefused(noDirectory, 403, 'belongs to a directory');
      await expectAudited(noDirectory, /names no directory/);
    });
  });

  it('logs out at the provider too: end_session_endpoint with the ID token as hint, back to /login', async () => {
    const { browser } = await signIn();
    const signOut = await browser.fetch('/signout');

    expect(signOut.status).toBe(302);
    const endSession = new URL(signOut.headers.get('location') ?? '');
    expect(`${endSession.origin}${endSession.pathname}`).toBe(`${provider.url}/endsession`);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(
      `${testApp.config.publicUrl}/login`,
    );
    expect(endSession.searchParams.get('client_id')).toBe('console');
    const hint = decodeJwt(endSession.searchParams.get('id_token_hint') ?? '');
    expect(hint).toMatchObject({ iss: provider.url, aud: 'console', email: 'admin@example.com' });
    expect((await sessionOf(browser)).status).toBe(401);

    const back = await browser.fetch(endSession.href);
    expect(back.headers.get('location')).toBe(`${testApp.config.publicUrl}/login`);
  });

  it('hints at the account at logout with an ID token longer than a cookie holds (Entra groups)', async () => {
    // Entra ID puts up to 200 group ids in a token: about 8 KB, twice what a cookie holds.
    const groups = Array.from({ length: 200 }, () => crypto.randomUUID());
    provider.signInAs({ email: 'admin@example.com', email_verified: true, groups });
    const { browser, response } = await signIn();
    expect(response.headers.get('location')).toBe('/dashboard');
    // The token stays on the server, with the session: no cookie carries it.
    expect(response.headers.getSetCookie().join('\n')).not.toMatch(/eyJ/);
    const kept = await hintOf(browser);
    expect(kept?.length).toBeGreaterThan(8000);

    const signOut = await browser.fetch('/signout');
    const idTokenHint = new URL(signOut.headers.get('location') ?? '').searchParams.get(
      'id_token_hint',
    );
    expect(idTokenHint).toBe(kept);
    expect(decodeJwt(idTokenHint ?? '')).toMatchObject({ email: 'admin@example.com', groups });
    // Its session row, and the token with it, are gone.
    expect(await hintOf(browser)).toBeUndefined();
  });

  it('says the provider cannot be reached while it is down, and works again once it is back', async () => {
    await provider.pause();
    try {
      const down = await signIn();
      await expectRefused(down, 502, 'cannot be reached right now');
    } finally {
      await provider.resume();
    }
    expect((await signIn()).response.headers.get('location')).toBe('/dashboard');
  });

  it('says the provider cannot be reached when only its signing keys fail, and recovers', async () => {
    // A server of its own: no key set cached yet, so the sign-in must fetch it.
    const app = await createTestApp({ oidc: issuerConfig() }, { database: testApp.database });
    try {
      for (const failure of ['server error', 'not json', 'connection closed'] as const) {
        provider.breakEndpoint('/jwks', failure);
        const tokenRequests = provider.requests('/token');
        const result = await signIn(app);
        // Discovery and the code exchange succeeded: only the keys were missing.
        expect(provider.requests('/token'), failure).toBe(tokenRequests + 1);
        await expectRefused(result, 502, 'cannot be reached right now');
      }
    } finally {
      provider.restore();
    }
    try {
      expect((await signIn(app)).response.headers.get('location')).toBe('/dashboard');
    } finally {
      await app.close();
    }
  });

  it('starts while the provider is down, and signs in once it is up, without a restart', async () => {
    await provider.pause();
    let app: TestApp | undefined;
    try {
      app = await createTestApp({ oidc: issuerConfig() }, { database: testApp.database });
      await expectRefused(await signIn(app), 502, 'cannot be reached right now');
      await provider.resume();
      expect((await signIn(app)).response.headers.get('location')).toBe('/dashboard');
    } finally {
      await provider.resume();
      await app?.close();
    }
  });
});

describe('the signing keys of the issuer', () => {
  const COOLDOWN_MS = 1000;

  /** A relying party whose key set may be fetched again a second after the last fetch. */
  function relyingParty() {
    return new RelyingParty(testApp.database.db, {
      issuer: provider.url,
      clientId: 'console',
      clientSecret: CLIENT_SECRET,
      scopes: 'openid profile email',
      redirectUri: `${testApp.config.publicUrl}/auth/callback`,
      postLogoutRedirectUri: `${testApp.config.publicUrl}/login`,
      allowHttp: true,
      keyRefreshCooldownMs: COOLDOWN_MS,
    });
  }

  async function signInAt(party: RelyingParty) {
    const { state, authorizationUrl } = await party.startSignIn();
    const authorized = await fetch(authorizationUrl, { redirect: 'manual' });
    const callbackUrl = new URL(authorized.headers.get('location') ?? '');
    return party.finishSignIn(callbackUrl, state).catch((error: unknown) => error);
  }

  it('fetches them again once for a rotated key, and at most once per cooldown for unknown ones', async () => {
    const party = relyingParty();
    const jwks = () => provider.requests('/jwks');
    // Keys made beforehand: making an RSA key takes long enough to outlast the cooldown.
    const [madeUp, anotherMadeUp] = await Promise.all([signingKey('RS256'), signingKey('RS256')]);
    expect(await signInAt(party)).toMatchObject({ email: 'admin@example.com' });
    const afterFirst = jwks();

    // The provider rotates: it publishes a new key and signs with it.
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 50));
    const rotated = await provider.publishNewKey();
    provider.forgeNextIdToken(({ payload }) => rotated.sign(payload));
    expect(await signInAt(party)).toMatchObject({ email: 'admin@example.com' });
    expect(jwks()).toBe(afterFirst + 1);

    // A made-up key id within the cooldown: refused without asking the provider again.
    provider.forgeNextIdToken(({ payload }) => madeUp.sign(payload));
    const refused = await signInAt(party);
    expect(refused).toBeInstanceOf(SignInError);
    expect(refused).toMatchObject({
      status: 502,
      logMessage: 'ID token refused: signed by a key the issuer does not publish',
    });
    expect(jwks()).toBe(afterFirst + 1);

    // After the cooldown, one more fetch for the next unknown key id, and still refused.
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 50));
    provider.forgeNextIdToken(({ payload }) => anotherMadeUp.sign(payload));
    expect(await signInAt(party)).toMatchObject({ status: 502 });
    expect(jwks()).toBe(afterFirst + 2);
  });

  it('keeps their cache when every sign-in discovers the metadata again', async () => {
    const party = relyingParty();
    await signInAt(party);
    const before = provider.requests('/jwks');
    await signInAt(party);
    await signInAt(party);
    expect(provider.requests('/jwks')).toBe(before);
  });

  it('logs why a token was refused, never the token', async () => {
    const party = relyingParty();
    provider.forgeNextIdToken(async ({ payload }) => (await signingKey('RS256')).sign(payload));
    const refused = await signInAt(party);
    expect(refused).toBeInstanceOf(SignInError);
    const { logMessage, userMessage } = refused as SignInError;
    expect(userMessage).toContain(NOT_VERIFIED);
    expect(logMessage).not.toMatch(/eyJ/);
  });
});

describe('configuration', () => {
  it('stops the server at start, naming OIDC_ISSUER, for an http issuer that is not this machine', async () => {
    const serverRoot = fileURLToPath(new URL('../..', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverRoot,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: '0',
        OIDC_ISSUER: 'http://login.example.com/tenant/v2.0',
        OIDC_CLIENT_ID: 'console',
        OIDC_CLIENT_SECRET: 'secret',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('OIDC_ISSUER must be an https:// URL');
  });
});

/** The ID token the browser's session keeps for its sign-out; undefined without a session. */
async function hintOf(browser: TestBrowser): Promise<string | null | undefined> {
  const row = await testApp.database.db
    .selectFrom('sessions')
    .select('id_token_hint')
    .where('id_hash', '=', hashCookieValue(browser.cookie(SESSION_COOKIE) ?? ''))
    .executeTakeFirst();
  return row?.id_token_hint;
}

async function countSessions(): Promise<number> {
  const row = await testApp.database.db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
