import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { sessionApi } from '@console/contracts';
import { z } from 'zod';
import type { ConsoleApp } from '../http/console-app.ts';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { AccessTokens, AuthenticatedUser } from './access-token.ts';
import {
  describeSignInProblem,
  escapeHtml,
  htmlPage,
  sendSignInProblem,
  signInErrorHandler,
} from './html.ts';
import { SIGN_IN_ATTEMPT_TTL_SECONDS, type RelyingParty } from './relying-party.ts';
import { resolveRoles } from './roles.ts';
import { SESSION_COOKIE, type Sessions } from './sessions.ts';
import { recordEventIfPossible } from '../outbox/outbox.ts';

/** Binds a started sign-in to the browser that started it (login CSRF protection). */
export const SIGN_IN_COOKIE = 'console_sign_in';
const CALLBACK_PATH = '/auth/callback';
const SIGN_OUT_PATH = '/signout';
/** The user agent kept in the audit log: enough to tell browsers apart, not a header's 16 KB. */
const USER_AGENT_MAX_LENGTH = 512;
/** The audit log's action of each session event, and the event's name. */
const SESSION_EVENTS = {
  'sign-in': 'SignedIn',
  'sign-in-refused': 'SignInRefused',
  'sign-out': 'SignedOut',
} as const;

interface SessionRecord {
  /** Who; a sign-in refused before its ID token was verified names nobody. */
  person?: { email: string; name: string };
  tenantId?: number;
  /** Why a sign-in was refused, in words safe to log (never a code or token). */
  reason?: string;
}

export interface AuthRouteDependencies {
  config: AppConfig;
  db: Kysely<Database>;
  sessions: Sessions;
  accessTokens: AccessTokens;
  relyingParty: RelyingParty;
}

const htmlPageSchema = z.string().describe('An HTML page explaining what happened');
const redirectSchema = z.null().describe('Redirect (see the Location header)');
const sessionStatus = {
  200: z.object({
    isAuthenticated: z.literal(true),
    accessToken: z.string().describe('A short-lived JWT for Authorization: Bearer'),
    userEmail: z.string(),
  }),
  401: z.object({ isAuthenticated: z.literal(false) }),
};
const callbackQuery = z.looseObject({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  iss: z.string().optional(),
});

/** /authenticated, /auth/callback, /signout and /auth/session (ARCHITECTURE.md, session). */
export function registerAuthRoutes(app: ConsoleApp, deps: AuthRouteDependencies): void {
  const { config, sessions, accessTokens, relyingParty } = deps;
  const rateLimited = {
    rateLimit: { max: config.signInRateLimitPerMinute, timeWindow: 60_000 },
  };
  const signInCookieOptions: CookieSerializeOptions = {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
    path: CALLBACK_PATH,
    maxAge: SIGN_IN_ATTEMPT_TTL_SECONDS,
  };

  /**
   * Sign-in, refused sign-in and sign-out in the audit log (issue 31): who (when known), when
   * (the event's time), from which address and browser, and why a sign-in was refused. Skipped
   * on a database without the events tables yet, so that an admin can still sign in to apply the
   * migrations.
   */
  async function recordSession(
    request: FastifyRequest,
    action: keyof typeof SESSION_EVENTS,
    { person, tenantId, reason }: SessionRecord = {},
  ): Promise<void> {
    await recordEventIfPossible(deps.db, {
      eventName: SESSION_EVENTS[action],
      tenantId: tenantId ?? null,
      metadata: {
        actor: person?.email ?? null,
        action,
        target: person
          ? { type: 'Session', id: person.email, name: person.name }
          : { type: 'Session' },
        ipAddress: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
        ...(reason === undefined ? {} : { reason }),
      },
    });
  }

  /**
   * The callback's failures end on the sign-in pages, and each leaves a refused sign-in in the
   * audit log with its reason. Requests past the rate limit (429) leave none: the limit is what
   * bounds the rows one address can make (SIGN_IN_RATE_LIMIT_PER_MINUTE a minute).
   */
  async function callbackErrorHandler(
    error: unknown,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const problem = describeSignInProblem(error, request);
    if (problem.status !== 429) {
      await recordSession(request, 'sign-in-refused', { reason: problem.reason }).catch(
        (cause: unknown) => request.log.error({ err: cause }, 'Refused sign-in not audited'),
      );
    }
    return sendSignInProblem(request, reply, problem);
  }

  /** The signed-in user with today's roles, or undefined (a session whose user lost every role ends). */
  async function activeUser(request: FastifyRequest): Promise<AuthenticatedUser | undefined> {
    const cookieValue = request.cookies[SESSION_COOKIE];
    const user = await sessions.find(cookieValue);
    if (!user) return undefined;
    const { roles, tenantId } = await resolveRoles(deps.db, config, user.email);
    if (roles.length === 0) {
      await sessions.delete(cookieValue);
      return undefined;
    }
    return { ...user, roles, ...(tenantId === undefined ? {} : { tenantId }) };
  }

  app.get(
    '/authenticated',
    {
      config: rateLimited,
      errorHandler: signInErrorHandler,
      schema: {
        tags: ['Sign-in'],
        summary: 'Start sign-in, or go back to the app when already signed in',
        security: [],
        produces: ['text/html'],
        response: { 302: redirectSchema, '4xx': htmlPageSchema, '5xx': htmlPageSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (await activeUser(request)) return reply.redirect('/dashboard');
      const { state, authorizationUrl } = await relyingParty.startSignIn();
      reply.setCookie(SIGN_IN_COOKIE, state, signInCookieOptions);
      return reply.redirect(authorizationUrl);
    },
  );

  app.get(
    CALLBACK_PATH,
    {
      config: rateLimited,
      errorHandler: callbackErrorHandler,
      schema: {
        tags: ['Sign-in'],
        summary: 'OpenID Connect redirect URI: finishes sign-in and starts the session',
        security: [],
        querystring: callbackQuery,
        produces: ['text/html'],
        response: { 302: redirectSchema, '4xx': htmlPageSchema, '5xx': htmlPageSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const browserState = request.cookies[SIGN_IN_COOKIE];
      reply.clearCookie(SIGN_IN_COOKIE, signInCookieOptions);
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const callbackUrl = new URL(`${config.publicUrl}${CALLBACK_PATH}${query}`);
      const person = await relyingParty.finishSignIn(callbackUrl, browserState);

      const { roles, tenantId } = await resolveRoles(deps.db, config, person.email);
      if (roles.length === 0) {
        app.metrics?.countSignIn('refused');
        await recordSession(request, 'sign-in-refused', { person, reason: 'no role' });
        request.log.warn({ reason: 'no role' }, 'Sign-in refused');
        return sendHtml(reply, 403, accessRefusedPage(person.email));
      }
      // A browser holds one session: an earlier one of this browser ends here.
      await sessions.delete(request.cookies[SESSION_COOKIE]);
      // The ID token stays with the session, for sign-out's id_token_hint.
      const cookieValue = await sessions.create(person, person.idToken);
      reply.setCookie(SESSION_COOKIE, cookieValue, sessions.cookieOptions());
      app.metrics?.countSignIn('succeeded');
      await recordSession(request, 'sign-in', { person, tenantId });
      request.log.info({ roles }, 'Signed in');
      return reply.redirect('/dashboard');
    },
  );

  app.get(
    SIGN_OUT_PATH,
    {
      schema: {
        tags: ['Sign-in'],
        summary:
          "End the session, then end the identity provider's session and come back to the login screen",
        security: [],
        produces: ['text/html'],
        response: { 302: redirectSchema },
      },
    },
    async (request, reply) => {
      const ended = await sessions.end(request.cookies[SESSION_COOKIE]);
      if (ended) await recordSession(request, 'sign-out', { person: ended.user });
      const { maxAge: _maxAge, ...cookieOptions } = sessions.cookieOptions();
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
      reply.header('cache-control', 'no-store');
      // The provider's end-session endpoint signs the person out there too and sends the browser
      // back to /login; without one (or while it cannot be reached), straight to /login.
      const endSessionUrl = await relyingParty.endSessionUrl(ended?.idTokenHint);
      return reply.redirect(endSessionUrl ?? '/login');
    },
  );

  app.get(
    sessionApi.status.path,
    {
      schema: {
        tags: ['Sign-in'],
        summary: 'Session status, with a freshly minted access token when signed in',
        security: [],
        response: sessionStatus,
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const user = await activeUser(request);
      if (!user) {
        if (request.cookies[SESSION_COOKIE] !== undefined) {
          const { maxAge: _maxAge, ...cookieOptions } = sessions.cookieOptions();
          reply.clearCookie(SESSION_COOKIE, cookieOptions);
        }
        return reply.code(401).send({ isAuthenticated: false as const });
      }
      return {
        isAuthenticated: true as const,
        accessToken: await accessTokens.mint(user),
        userEmail: user.email,
      };
    },
  );
}

function accessRefusedPage(email: string): string {
  return htmlPage(
    'Access refused',
    `<h1>Access refused</h1>
<p>The account ${escapeHtml(email)} is not allowed to use the console.</p>
<p>Ask an administrator for access, or sign in with another account.</p>
<p><a href="/login">Back to sign-in</a></p>`,
  );
}

function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}
