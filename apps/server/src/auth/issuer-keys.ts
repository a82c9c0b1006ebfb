import { createRemoteJWKSet, customFetch, errors, jwtVerify } from 'jose';
import type { CustomFetchOptions } from 'openid-client';
import { SignInError } from './sign-in-error.ts';

/**
 * The ID token's signature algorithms the console accepts: asymmetric ones only. `none` would
 * accept any token, and an HMAC (HS256...) would be keyed with the client secret, which the
 * console holds too: a token "signed" with it proves nothing about the provider.
 */
export const ID_TOKEN_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** How long the published keys are used before they are fetched again. */
const KEY_SET_MAX_AGE_MS = 10 * 60 * 1000;
/** Slack for clocks that differ between the provider and this server, as openid-client allows. */
const CLOCK_TOLERANCE_SECONDS = 30;

/** A fetch for the issuer's endpoints, which both openid-client and jose call. */
export type IssuerFetch = (
  url: string,
  options: {
    method: string;
    headers: Record<string, string> | Headers;
    body?: CustomFetchOptions['body'];
    signal?: AbortSignal;
  },
) => Promise<Response>;

export interface IssuerKeySettings {
  /** Fetch the key set again for an unknown `kid` at most once in this time (default 30 s). */
  refreshCooldownMs?: number;
  timeoutMs: number;
  /** Replaces network calls to the issuer (the embedded provider answers in-process). */
  fetch?: IssuerFetch;
}

const DEFAULT_REFRESH_COOLDOWN_MS = 30_000;

/**
 * The signing keys an issuer publishes at its `jwks_uri`, and the check of an ID token against
 * them. The set is fetched when first needed and kept 10 minutes. A token naming a key the set
 * lacks (the provider rotated its keys) fetches it again, once, and at most once per cooldown, so
 * tokens with made-up key ids cannot make the console hammer the provider (jose's remote key set).
 */
export class IssuerKeys {
  private readonly keySet: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    readonly jwksUri: string,
    settings: IssuerKeySettings,
  ) {
    this.keySet = createRemoteJWKSet(new URL(jwksUri), {
      cacheMaxAge: KEY_SET_MAX_AGE_MS,
      cooldownDuration: settings.refreshCooldownMs ?? DEFAULT_REFRESH_COOLDOWN_MS,
      timeoutDuration: settings.timeoutMs,
      ...(settings.fetch ? { [customFetch]: settings.fetch } : {}),
    });
  }

  /**
   * Checks the ID token's signature with a published key and an allowed algorithm, and its
   * issuer, audience and lifetime. Throws a SignInError saying why (never the token itself).
   */
  async verify(idToken: string, expected: { issuer: string; audience: string }): Promise<void> {
    try {
      await jwtVerify(idToken, this.keySet, {
        algorithms: ID_TOKEN_ALGORITHMS,
        issuer: expected.issuer,
        audience: expected.audience,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
    } catch (cause) {
      throw refusal(cause, this.jwksUri);
    }
  }
}

const NOT_VERIFIED =
  'The identity provider’s answer could not be verified, so you were not signed in. Please try again, and tell an administrator if it keeps happening.';

function refusal(cause: unknown, jwksUri: string): SignInError {
  if (isUnreachable(cause)) {
    return new SignInError(
      502,
      'The identity provider cannot be reached right now. Please try again in a moment.',
      `Fetching the signing keys at ${jwksUri} failed: ${cause instanceof Error ? cause.message : 'unknown error'}`,
      { cause },
    );
  }
  return new SignInError(502, NOT_VERIFIED, `ID token refused: ${reasonOf(cause)}`, { cause });
}

function isUnreachable(error: unknown): boolean {
  return (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    // fetch's own failure (connection refused, DNS), and a key set answered with another status.
    (error instanceof TypeError && error.message === 'fetch failed') ||
    (error instanceof errors.JOSEError && error.code === 'ERR_JOSE_GENERIC')
  );
}

/** Why a token was refused, in words safe to log: the token's own values are never repeated. */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWKSNoMatchingKey)
    return 'signed by a key the issuer does not publish';
  if (error instanceof errors.JWKSMultipleMatchingKeys) return 'its key id matches several keys';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'its signature algorithm is not allowed';
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return 'its signature does not verify';
  if (error instanceof errors.JWTExpired) return 'it has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    return `its "${error.claim}" claim is not the expected one`;
  }
  if (error instanceof errors.JOSEError) return `it is not a valid signed token (${error.code})`;
  return 'it could not be checked';
}
