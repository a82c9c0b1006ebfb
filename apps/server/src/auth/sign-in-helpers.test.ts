import fc from 'fast-check';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { ConsoleApp } from '../http/console-app.ts';
import type { Database } from '../db/schema.ts';
import { loadConfig } from '../config.ts';
import { displayNameFor } from './demo-accounts.ts';
import { mountEmbeddedIdentityProvider } from './embedded-provider.ts';
import { createMemoryAdapter } from './embedded-provider-store.ts';
import { escapeHtml } from './html.ts';
import { signInPage } from './interaction-page.ts';
import { emailFromClaims, RelyingParty } from './relying-party.ts';
import { SignInError } from './sign-in-error.ts';

describe('emailFromClaims', () => {
  it('takes a vouched-for email, then preferred_username, then upn', () => {
    expect(
      emailFromClaims({
        email: 'A@Example.com',
        email_verified: true,
        preferred_username: 'b@example.com',
        upn: 'c@example.com',
      }),
    ).toBe('a@example.com');
    expect(emailFromClaims({ preferred_username: 'B@Example.com', upn: 'c@example.com' })).toBe(
      'b@example.com',
    );
    expect(emailFromClaims({ upn: 'C@Example.com' })).toBe('c@example.com');
  });

  it("takes Entra ID's email when the domain owner verified it (xms_edov)", () => {
    expect(
      emailFromClaims({ email: 'a@example.com', xms_edov: true, preferred_username: 'b@x.test' }),
    ).toBe('a@example.com');
  });

  it('never takes an email the provider does not vouch for (Entra ID lets anyone set it)', () => {
    expect(
      emailFromClaims({
        email: 'admin@example.com',
        preferred_username: 'mallory@attacker.test',
      }),
    ).toBe('mallory@attacker.test');
    expect(
      emailFromClaims({ email: 'spoof@example.com', email_verified: false, upn: 'real@x.test' }),
    ).toBe('real@x.test');
    expect(emailFromClaims({ email: 'admin@example.com', email_verified: 'true' })).toBeUndefined();
    fc.assert(
      fc.property(
        fc.emailAddress(),
        fc.option(fc.emailAddress(), { nil: undefined }),
        fc.constantFrom(undefined, false, 'true', 1, null),
        fc.constantFrom(undefined, false, 'true', 1, null),
        (email, other, emailVerified, domainOwnerVerified) => {
          const chosen = emailFromClaims({
            email,
            email_verified: emailVerified,
            xms_edov: domainOwnerVerified,
            preferred_username: other,
          });
          expect(chosen).toBe(other === undefined ? undefined : other.toLowerCase());
        },
      ),
    );
  });

  it('skips values that are no address', () => {
    expect(emailFromClaims({ preferred_username: '+44 20 7946 0000', upn: 'c@example.com' })).toBe(
      'c@example.com',
    );
    expect(emailFromClaims({ sub: 'abc' })).toBeUndefined();
  });
});

describe('displayNameFor', () => {
  it('names demo accounts by their name and others by their local part', () => {
    expect(displayNameFor('admin@example.com')).toBe('Ada Admin');
    expect(displayNameFor('grace.hopper@example.com')).toBe('Grace Hopper');
    expect(displayNameFor('jane_doe-smith@initech.example')).toBe('Jane Doe Smith');
  });
});

describe('the sign-in page', () => {
  it('escapes everything it echoes', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    const html = signInPage({
      interactionPath: '/oidc/interaction/"><script>',
      email: '"><script>alert(1)</script>',
      error: '<b>bad</b>',
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
  });

  it('has no inline script and loads nothing from elsewhere', () => {
    const html = signInPage({ interactionPath: '/oidc/interaction/abc' });
    expect(html).not.toMatch(/<script|<link|@import|url\(|https?:\/\//i);
  });
});

describe('the embedded identity provider', () => {
  it('refuses to start in production', async () => {
    const config = { ...loadConfig({ NODE_ENV: 'test' }), env: 'production' as const };
    const app = Fastify() as unknown as ConsoleApp;
    await expect(
      mountEmbeddedIdentityProvider(app, { config, rateLimitPerMinute: 1 }),
    ).rejects.toThrow(/refuses to run when NODE_ENV=production/);
    await app.close();
  });

  it('keeps its state in memory with expiry, by model, and revokes by grant', async () => {
    const Adapter = createMemoryAdapter();
    const codes = new Adapter('AuthorizationCode');
    const sessions = new Adapter('Session');
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await codes.upsert('c2', { grantId: 'g2' }, -1);
    await sessions.upsert('s1', { uid: 'u1' }, 60);

    expect(await codes.find('c1')).toEqual({ grantId: 'g1' });
    expect(await codes.find('c2')).toBeUndefined();
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1' });
    expect(await new Adapter('AccessToken').find('c1')).toBeUndefined();

    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));
    await codes.revokeByGrantId('g1');
    expect(await codes.find('c1')).toBeUndefined();
    await sessions.destroy('s1');
    expect(await sessions.findByUid('u1')).toBeUndefined();
  });
});

describe('discovery of the identity provider', () => {
  it('happens at first use and is tried again after a failure', async () => {
    const issuer = 'https://login.example.test/tenant/v2.0';
    let calls = 0;
    const relyingParty = new RelyingParty({} as Kysely<Database>, {
      issuer,
      clientId: 'console',
      clientSecret: 'secret',
      scopes: 'openid profile email',
      redirectUri: 'https://console.example.test/auth/callback',
      postLogoutRedirectUri: 'https://console.example.test/login',
      fetch: async (url) => {
        calls++;
        expect(url).toBe(`${issuer}/.well-known/openid-configuration`);
        if (calls === 1) throw new TypeError('fetch failed');
        return Response.json({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/keys`,
        });
      },
    });
    expect(calls).toBe(0);

    const failure = await relyingParty.configuration().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SignInError);
    expect(failure).toMatchObject({ status: 502 });

    const { configuration } = await relyingParty.configuration();
    expect(configuration.serverMetadata().token_endpoint).toBe(`${issuer}/token`);
    await relyingParty.configuration();
    expect(calls).toBe(2);
  });
});
