import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import type { Database } from '../db/schema.ts';
import { IssuerKeys, type IssuerFetch } from './issuer-keys.ts';
import { normaliseEmail } from './roles.ts';
import type { SessionUser } from './sessions.ts';
import { SignInError } from './sign-in-error.ts';

/** How long a started sign-in may take before its callback is refused. */
export const SIGN_IN_ATTEMPT_TTL_SECONDS = 10 * 60;

/** Seconds to wait for the identity provider before telling the user it cannot be reached. */
const IDENTITY_PROVIDER_TIMEOUT_SECONDS = 10;

export interface RelyingPartySettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  /** `${publicUrl}/auth/callback`, registered at the identity provider. */
  redirectUri: string;
  /** `${publicUrl}/login`, where the provider sends the browser after signing out. */
  postLogoutRedirectUri: string;
  /** Extra authorization parameters, e.g. `prompt=login` for the embedded provider. */
  authorizationParams?: Record<string, string>;
  /** When not empty, only ID tokens whose `tid` (Entra directory) is listed sign in. */
  allowedTenantIds?: readonly string[];
  /** An http:// issuer: the embedded provider, or a development provider on this machine. */
  allowHttp?: boolean;
  /** Replaces network calls to the issuer (the embedded provider answers in-process). */
  fetch?: IssuerFetch;
  /** Fetch the signing keys again for an unknown key id at most once in this time (tests). */
  keyRefreshCooldownMs?: number;
}

/** What a sign-in establishes: the person, and the ID token to hint at when they sign out. */
export interface SignedInPerson extends SessionUser {
  idToken: string;
}

interface Discovered {
  configuration: client.Configuration;
  keys: IssuerKeys;
}

/**
 * The OpenID Connect relying party: authorization code flow with PKCE (S256), state and nonce,
 * and the ID token's signature checked against the keys the issuer publishes. Started sign-ins
 * live in `sign_in_attempts`, so any instance can finish what another started. Every sign-in
 * starts with discovery, so a provider that is down gives a clear page at once and one that is
 * back works again without a restart.
 */
export class RelyingParty {
  private discovered: Promise<Discovered> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: RelyingPartySettings,
  ) {}

  /** Records a new attempt and returns where to send the browser, with the attempt's state. */
  async startSignIn(): Promise<{ state: string; authorizationUrl: string }> {
    const { configuration } = await this.rediscover();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    await this.db
      .insertInto('sign_in_attempts')
      .values({
        state,
        nonce,
        code_verifier: codeVerifier,
        expires_at: new Date(Date.now() + SIGN_IN_ATTEMPT_TTL_SECONDS * 1000),
      })
      .execute();
    const authorizationUrl = client.buildAuthorizationUrl(configuration, {
      ...this.settings.authorizationParams,
      redirect_uri: this.settings.redirectUri,
      scope: this.settings.scopes,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { state, authorizationUrl: authorizationUrl.href };
  }

  /**
   * Finishes the sign-in the identity provider redirected back with. `callbackUrl` is the full
   * redirect URI with its query; `browserState` is the state this browser started with.
   */
  async finishSignIn(callbackUrl: URL, browserState: string | undefined): Promise<SignedInPerson> {
    const params = callbackUrl.searchParams;
    const state = params.get('state') ?? undefined;
    const error = params.get('error');
    if (error) {
      if (state) await this.consumeAttempt(state);
      throw identityProviderRefused(error);
    }
    if (!state || state !== browserState) {
      throw new SignInError(
        400,
        'This sign-in was not started in this browser, or it was already finished. Please sign in again.',
        state
          ? 'Sign-in callback state does not match the browser'
          : 'Sign-in callback without state',
      );
    }
    const attempt = await this.consumeAttempt(state);
    if (!attempt) {
      throw new SignInError(
        400,
        'This sign-in has expired or was already used. Please sign in again.',
        'Sign-in callback for an unknown or expired attempt',
      );
    }
    const { configuration, keys } = await this.configuration();
    const tokens = await client
      .authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: attempt.code_verifier,
        expectedState: state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      })
      .catch((cause: unknown) => {
        throw new SignInError(
          502,
          'The identity provider did not confirm the sign-in. Please try again.',
          `Token exchange failed: ${describeClientError(cause)}`,
          { cause },
        );
      });
    if (!tokens.id_token) {
      throw new SignInError(502, GENERIC_FAILURE, 'No ID token in the token response');
    }
    await keys.verify(tokens.id_token, {
      issuer: configuration.serverMetadata().issuer,
      audience: this.settings.clientId,
    });
    const person = await this.identify(configuration, tokens);
    return { ...person, idToken: tokens.id_token };
  }

  /**
   * Where to send a browser that signs out, so that the provider ends its session too
   * (RP-initiated logout): its `end_session_endpoint` with the ID token as hint and the login
   * screen to come back to. Undefined when the provider has no such endpoint or cannot be
   * reached: signing out of the console must not wait for it.
   */
  async endSessionUrl(idToken: string | undefined): Promise<string | undefined> {
    const discovered = await this.configuration().catch(() => undefined);
    if (!discovered?.configuration.serverMetadata().end_session_endpoint) return undefined;
    return client.buildEndSessionUrl(discovered.configuration, {
      post_logout_redirect_uri: this.settings.postLogoutRedirectUri,
      ...(idToken ? { id_token_hint: idToken } : {}),
    }).href;
  }

  /** The issuer's metadata as last discovered; discovered now when there is none yet. */
  configuration(): Promise<Discovered> {
    return this.discovered ?? this.rediscover();
  }

  async deleteExpiredAttempts(): Promise<void> {
    await this.db.deleteFrom('sign_in_attempts').where('expires_at', '<=', new Date()).execute();
  }

  /** Discovers the issuer's metadata again; the last good one stays until a discovery succeeds. */
  private rediscover(): Promise<Discovered> {
    const discovering = this.discover();
    discovering.then(
      () => {
        this.discovered = discovering;
      },
      () => {},
    );
    return discovering;
  }

  private async discover(): Promise<Discovered> {
    const configuration = await this.discoverConfiguration();
    const jwksUri = configuration.serverMetadata().jwks_uri;
    if (!jwksUri) {
      throw new SignInError(
        502,
        GENERIC_FAILURE,
        `${this.settings.issuer} publishes no jwks_uri: ID tokens cannot be verified`,
      );
    }
    const current = await this.discovered?.catch(() => undefined);
    // The same key set as before keeps its cache (and its refresh cooldown).
    const keys =
      current?.keys.jwksUri === jwksUri
        ? current.keys
        : new IssuerKeys(jwksUri, {
            timeoutMs: IDENTITY_PROVIDER_TIMEOUT_SECONDS * 1000,
            ...(this.settings.fetch ? { fetch: this.settings.fetch } : {}),
            ...(this.settings.keyRefreshCooldownMs === undefined
              ? {}
              : { refreshCooldownMs: this.settings.keyRefreshCooldownMs }),
          });
    return { configuration, keys };
  }

  private async discoverConfiguration(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret, allowHttp, fetch } = this.settings;
    try {
      return await client.discovery(
        new URL(issuer),
        clientId,
        undefined,
        client.ClientSecretPost(clientSecret),
        {
          timeout: IDENTITY_PROVIDER_TIMEOUT_SECONDS,
          execute: allowHttp ? [client.allowInsecureRequests] : [],
          ...(fetch ? { [client.customFetch]: fetch } : {}),
        },
      );
    } catch (cause) {
      throw new SignInError(
        502,
        'The identity provider cannot be reached right now. Please try again in a moment.',
        `Discovery of ${issuer} failed: ${describeClientError(cause)}`,
        { cause },
      );
    }
  }

  /** A single-use read: the attempt is deleted as it is taken. */
  private consumeAttempt(state: string) {
    return this.db
      .deleteFrom('sign_in_attempts')
      .where('state', '=', state)
      .where('expires_at', '>', new Date())
      .returning(['nonce', 'code_verifier'])
      .executeTakeFirst();
  }

  /**
   * Who signed in: from the ID token, else from the userinfo endpoint. Each source speaks for its
   * own address only: an `email_verified` of userinfo never vouches for the ID token's `email`
   * (nor the other way round), so the two are not merged before the address is chosen.
   */
  private async identify(
    configuration: client.Configuration,
    tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>,
  ): Promise<SessionUser> {
    const idToken = tokens.claims();
    if (!idToken) throw new SignInError(502, GENERIC_FAILURE, 'No ID token in the token response');
    this.checkDirectory(idToken.tid);
    let email = emailFromClaims(idToken);
    let claims: Record<string, unknown> = idToken;
    if (!email && configuration.serverMetadata().userinfo_endpoint) {
      const userInfo = await client
        .fetchUserInfo(configuration, tokens.access_token, idToken.sub)
        .catch((cause: unknown) => {
          throw new SignInError(502, GENERIC_FAILURE, 'Userinfo request failed', { cause });
        });
      email = emailFromClaims(userInfo);
      // For the name, the ID token wins where both speak; userinfo fills in what it left out.
      claims = { ...userInfo, ...idToken };
    }
    if (!email) {
      throw new SignInError(
        400,
        'The identity provider did not share an email address for this account, so the console cannot tell who you are.',
        'The identity provider returned no email, preferred_username or upn claim',
      );
    }
    return { subject: idToken.sub, email, name: nameFromClaims(claims, email) };
  }

  /** With OIDC_ALLOWED_TENANT_IDS, only people of the listed Entra directories sign in. */
  private checkDirectory(tid: unknown): void {
    const allowed = this.settings.allowedTenantIds ?? [];
    if (allowed.length === 0) return;
    if (typeof tid === 'string' && allowed.includes(tid.toLowerCase())) return;
    throw new SignInError(
      403,
      'This account belongs to a directory that may not use the console. Sign in with an account of your organisation.',
      typeof tid === 'string'
        ? 'The ID token names a directory (tid) that is not in OIDC_ALLOWED_TENANT_IDS'
        : 'The ID token names no directory (tid) and OIDC_ALLOWED_TENANT_IDS is set',
    );
  }
}

const GENERIC_FAILURE = 'The sign-in could not be completed. Please try again.';

/**
 * The email address that names the signed-in person, and so their roles (docs/security.md,
 * "Who signs in"). `email` counts only when the provider vouches for it (`email_verified: true`,
 * or Entra's `xms_edov: true`): Microsoft Entra ID sends an `email` that the user, or the
 * administrator of any other directory, may set to anyone's address, and Microsoft advises
 * against granting access by it. Otherwise `preferred_username`, then `upn`: in Entra ID the user
 * principal name, which only the directory's administrators assign, in a domain the directory
 * has verified. The first of them that holds an address wins.
 */
export function emailFromClaims(claims: Record<string, unknown>): string | undefined {
  const emailVouchedFor = claims.email_verified === true || claims.xms_edov === true;
  const candidates = [
    emailVouchedFor ? claims.email : undefined,
    claims.preferred_username,
    claims.upn,
  ];
  const email = candidates.find(
    (value): value is string => typeof value === 'string' && value.includes('@'),
  );
  return email === undefined ? undefined : normaliseEmail(email);
}

function nameFromClaims(claims: Record<string, unknown>, email: string): string {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const name =
    text(claims.name) || [text(claims.given_name), text(claims.family_name)].join(' ').trim();
  return name || email.slice(0, email.indexOf('@'));
}

function identityProviderRefused(error: string): SignInError {
  if (error === 'access_denied') {
    return new SignInError(
      400,
      'Sign-in was cancelled or refused at the identity provider.',
      'The identity provider answered access_denied',
    );
  }
  // Only known error codes are echoed to the log: the parameter is attacker-controlled.
  const code = /^[a-z_]{1,64}$/.test(error) ? error : 'unrecognised error';
  return new SignInError(
    400,
    'The identity provider could not sign you in. Please try again.',
    `The identity provider answered ${code}`,
  );
}

/** A log-safe description: error class and code, never request or response bodies. */
function describeClientError(error: unknown): string {
  if (error instanceof client.ResponseBodyError) return `${error.error} (${error.status})`;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const cause = error.cause instanceof Error ? `; ${error.cause.message}` : '';
    return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}${cause}`;
  }
  return 'unknown error';
}
