import type { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fastifyFormbody from '@fastify/formbody';
import type {} from '@fastify/rate-limit';
import type { FastifyReply, InjectOptions } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import type { Configuration, KoaContextWithOIDC, default as EmbeddedProvider } from 'oidc-provider';
import { z } from 'zod';
import type { ConsoleApp } from '../http/console-app.ts';
import type { AppConfig } from '../config.ts';
import { displayNameFor } from './demo-accounts.ts';
import { htmlPage, signInErrorHandler, signInProblemPage } from './html.ts';
import { signInPage, signOutPage } from './interaction-page.ts';
import type { IssuerFetch } from './issuer-keys.ts';
import { createMemoryAdapter } from './embedded-provider-store.ts';
import { normaliseEmail } from './roles.ts';

/**
 * The embedded OpenID Connect identity provider (oidc-provider), mounted under /oidc when no
 * OIDC_ISSUER is configured, so the real sign-in flow runs on a fresh machine. It knows the demo
 * accounts and accepts any email address without a password: development and tests only. Its
 * own state (interactions, codes, keys, client secret) lives in this process, so it serves a
 * single development process; production uses an external issuer.
 */
export interface EmbeddedIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Carries the relying party's calls to the provider inside the process (no network hop). */
  fetch: IssuerFetch;
}

const MOUNT_PATH = '/oidc';
const CLIENT_ID = 'console';
export const EMBEDDED_SCOPES = 'openid profile email';

export interface EmbeddedProviderOptions {
  config: AppConfig;
  /** Requests per minute and client address on the sign-in page. */
  rateLimitPerMinute: number;
}

export async function mountEmbeddedIdentityProvider(
  app: ConsoleApp,
  { config, rateLimitPerMinute }: EmbeddedProviderOptions,
): Promise<EmbeddedIdentityProvider> {
  if (config.env === 'production' || process.env.NODE_ENV === 'production') {
    throw new Error(
      'The embedded identity provider refuses to run when NODE_ENV=production: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
    );
  }
  const issuer = `${config.publicUrl}${MOUNT_PATH}`;
  const clientSecret = randomBytes(32).toString('base64url');
  // Imported only here: production never loads the provider.
  const { default: Provider } = await import('oidc-provider');
  const provider = new Provider(issuer, {
    ...(await providerConfiguration(config, clientSecret)),
    adapter: createMemoryAdapter(),
  });
  // Behind a TLS-terminating proxy, take the scheme and host from X-Forwarded-* like Fastify does.
  provider.proxy = true;
  provider.on('server_error', (_ctx: unknown, error: Error) => {
    app.log.error({ err: error }, 'Embedded identity provider error');
  });
  // Koa (which the provider extends) would print escaped errors to stderr; log them instead.
  (provider as unknown as NodeJS.EventEmitter).on('error', (error: Error) => {
    app.log.error({ err: error }, 'Embedded identity provider error');
  });

  await app.register(async (scope) => {
    await scope.register(fastifyFormbody);
    registerInteractionRoutes(scope as ConsoleApp, provider, rateLimitPerMinute);
  });
  await app.register(async (scope) => {
    // oidc-provider reads request bodies itself: accept every content type without reading it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const handle = provider.callback();
    const whileProviderWorks = providerContextScope(
      (await import('oidc-provider/lib/helpers/als.js')).default,
    );
    scope.all(`${MOUNT_PATH}/*`, { schema: { hide: true } }, (request, reply) => {
      reply.hijack();
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      const url = raw.url ?? '/';
      // oidc-provider derives its mount path from originalUrl minus url, as under Express.
      raw.originalUrl = url;
      raw.url = url.slice(MOUNT_PATH.length) || '/';
      void whileProviderWorks(() => handle(raw, reply.raw));
    });
  });

  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret,
    fetch: inProcessFetch(app, config.publicUrl),
  };
}

/**
 * Runs the provider's request handlers, and disables the provider's request context (an
 * AsyncLocalStorage) whenever none is in flight. On Node 20 and 22 a store that has run once turns
 * V8's promise hooks on for the whole process and leaves them on: after the first sign-in, every
 * promise of every API request paid for them (20-70 µs of CPU per request in a bare Fastify route
 * reading a page through pg). The provider's next request enables the store again
 * (AsyncLocalStorage.run).
 */
function providerContextScope(context: AsyncLocalStorage<unknown>) {
  let inFlight = 0;
  return async (work: () => Promise<void>): Promise<void> => {
    inFlight += 1;
    try {
      await work();
    } finally {
      inFlight -= 1;
      if (inFlight === 0) context.disable();
    }
  };
}

async function providerConfiguration(
  config: AppConfig,
  clientSecret: string,
): Promise<Configuration> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const { default: allowInlineScript } =
    await import('oidc-provider/lib/helpers/script_src_sha.js');
  const signingKey = {
    ...(await exportJWK(privateKey)),
    alg: 'RS256',
    use: 'sig',
    kid: 'embedded',
  };
  return {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [`${config.publicUrl}/auth/callback`],
        post_logout_redirect_uris: [`${config.publicUrl}/login`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
    },
    // Put the profile and email claims in the ID token, so the relying party needs no userinfo call.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // Log out ends this provider's session too, as at Entra ID (routes.ts, /signout).
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
          ctx.type = 'html';
          ctx.body = signOutPage(form, allowInlineScript(ctx, 'document.forms[0].submit();'));
        },
        postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => {
          ctx.type = 'html';
          ctx.body = signedOutPage();
        },
      },
    },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) =>
        `${MOUNT_PATH}/interaction/${interaction.uid}`,
    },
    // The console is a first-party client: consent is given without asking.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session, result } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: client.clientId,
        accountId: session.accountId,
      });
      grant.addOIDCScope(EMBEDDED_SCOPES);
      await grant.save();
      return grant;
    },
    findAccount: (_ctx: KoaContextWithOIDC, accountId: string) => ({
      accountId,
      claims: () => ({
        sub: accountId,
        email: accountId,
        email_verified: true,
        name: displayNameFor(accountId),
        preferred_username: accountId,
      }),
    }),
    renderError: (ctx: KoaContextWithOIDC, out: { error_description?: string }) => {
      ctx.type = 'html';
      // A sign-out whose hint this provider cannot read (it restarted, with new keys): its own
      // sessions ended with the restart, and the console's ended before the browser came here.
      if (ctx.oidc?.route === 'end_session') {
        ctx.body = signedOutPage();
        return;
      }
      ctx.body = signInProblemPage(
        'Sign-in failed',
        out.error_description ?? 'The identity provider could not process this sign-in request.',
      );
    },
    clientBasedCORS: () => false,
    ttl: {
      AccessToken: 5 * 60,
      AuthorizationCode: 60,
      IdToken: 5 * 60,
      Interaction: 10 * 60,
      Session: 10 * 60,
      Grant: 10 * 60,
    },
  };
}

function signedOutPage(): string {
  return htmlPage(
    'Signed out',
    `<h1>Signed out</h1>
<p>You are signed out of the console and of the development identity provider.</p>
<p><a href="/login">Back to sign-in</a></p>`,
  );
}

const interactionParams = z.object({ uid: z.string().min(1) });
const loginBody = z.object({ email: z.string().max(320) });

/** Our own interaction pages (oidc-provider's development pages load web fonts). */
function registerInteractionRoutes(
  app: ConsoleApp,
  provider: EmbeddedProvider,
  rateLimitPerMinute: number,
): void {
  const routeOptions = {
    config: { rateLimit: { max: rateLimitPerMinute, timeWindow: 60_000 } },
    errorHandler: signInErrorHandler,
  };
  const interactionPath = (uid: string) => `${MOUNT_PATH}/interaction/${encodeURIComponent(uid)}`;

  app.get(
    `${MOUNT_PATH}/interaction/:uid`,
    { ...routeOptions, schema: { hide: true, params: interactionParams } },
    async (request, reply) => {
      const interaction = await provider.interactionDetails(request.raw, reply.raw);
      assertSameInteraction(interaction.uid, request.params.uid);
      return sendPage(
        reply,
        200,
        signInPage({ interactionPath: interactionPath(interaction.uid) }),
      );
    },
  );

  app.post(
    `${MOUNT_PATH}/interaction/:uid/login`,
    { ...routeOptions, schema: { hide: true, params: interactionParams, body: loginBody } },
    async (request, reply) => {
      const interaction = await provider.interactionDetails(request.raw, reply.raw);
      assertSameInteraction(interaction.uid, request.params.uid);
      const email = normaliseEmail(request.body.email);
      if (!looksLikeEmail(email)) {
        return sendPage(
          reply,
          400,
          signInPage({
            interactionPath: interactionPath(interaction.uid),
            email: request.body.email,
            error: 'Enter an email address such as name@example.com.',
          }),
        );
      }
      const returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        { login: { accountId: email } },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(returnTo, 303);
    },
  );

  app.post(
    `${MOUNT_PATH}/interaction/:uid/abort`,
    { ...routeOptions, schema: { hide: true, params: interactionParams } },
    async (request, reply) => {
      const interaction = await provider.interactionDetails(request.raw, reply.raw);
      assertSameInteraction(interaction.uid, request.params.uid);
      const returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        { error: 'access_denied', error_description: 'The user cancelled the sign-in' },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(returnTo, 303);
    },
  );
}

function assertSameInteraction(cookieUid: string, pathUid: string): void {
  if (cookieUid !== pathUid) {
    throw Object.assign(new Error('Interaction cookie and path differ'), { statusCode: 400 });
  }
}

function looksLikeEmail(email: string): boolean {
  return /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email);
}

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
}

/**
 * The relying party's fetch for the embedded issuer: requests go to this app through
 * `app.inject`, so discovery and token exchange never depend on PUBLIC_URL being reachable from
 * inside the server (e.g. behind Docker port mapping).
 */
function inProcessFetch(app: ConsoleApp, publicUrl: string): IssuerFetch {
  const origin = new URL(publicUrl);
  return async (url, options) => {
    const target = new URL(url);
    if (target.origin !== origin.origin || !target.pathname.startsWith(`${MOUNT_PATH}/`)) {
      throw new Error(
        `The embedded identity provider does not serve ${target.origin}${target.pathname}`,
      );
    }
    const response = await app.inject({
      method: options.method as InjectOptions['method'],
      url: `${target.pathname}${target.search}`,
      headers: {
        ...Object.fromEntries(new Headers(options.headers)),
        host: origin.host,
        'x-forwarded-proto': origin.protocol.replace(':', ''),
      },
      ...(options.body == null ? {} : { payload: String(options.body) }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      for (const item of [value ?? []].flat()) headers.append(name, String(item));
    }
    const hasBody = ![101, 204, 205, 304].includes(response.statusCode);
    return new Response(hasBody ? response.rawPayload : null, {
      status: response.statusCode,
      headers,
    });
  };
}
