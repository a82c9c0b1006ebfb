import { decodeProtectedHeader, errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { z } from 'zod';
import type { AppConfig } from '../config.ts';
import { ROLES, type Role } from './roles.ts';
import { SIGNING_ALGORITHM, type SigningKeyStore } from './signing-keys.ts';

/** The signed-in person as every /api and /svc handler sees it (`request.user`). */
export interface AuthenticatedUser {
  /** The identity provider's subject. */
  subject: string;
  /** Lower-cased email address. */
  email: string;
  name: string;
  roles: Role[];
  /** Set for tenant users: the tenant whose data they may see. */
  tenantId?: number;
}

/** Why a bearer token was refused; the guard answers 401 with this message. */
export class InvalidAccessTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAccessTokenError';
  }
}

const accessTokenClaims = z.object({
  sub: z.string().min(1),
  name: z.string(),
  email: z.string().min(1),
  roles: z.array(z.enum(ROLES)),
  tid: z.number().int().optional(),
});

/** Most verified tokens remembered at once; the oldest is forgotten first. */
const VERIFIED_TOKENS_MAX = 10_000;

/** A token whose signature and claims have been checked, until it expires. */
interface VerifiedToken {
  user: AuthenticatedUser;
  kid: string;
  /** Seconds since the epoch, from the token's `exp`. */
  expiresAt: number;
}

/**
 * Mints and verifies the short-lived access tokens (JWT, ES256) the SPA sends as
 * `Authorization: Bearer`. Keys come from the database, so any instance verifies any token.
 *
 * Checking an ES256 signature costs more than serving a cached list, and the SPA sends the same
 * token with every call until it expires: a token verified once is remembered (by its exact text,
 * signature included) until its `exp`. What can change meanwhile is checked again on every call:
 * the clock against `exp`, and that its signing key still verifies (a retired key stops).
 */
export class AccessTokens {
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(
    private readonly keys: SigningKeyStore,
    private readonly config: Pick<AppConfig, 'publicUrl' | 'accessTokenTtlSeconds'>,
  ) {}

  async mint(user: AuthenticatedUser): Promise<string> {
    const { kid, privateKey } = await this.keys.signingKey();
    const claims: JWTPayload = {
      name: user.name,
      preferred_username: user.email,
      // The SPA reads the signed-in email from `upn` (spec, section 3).
      upn: user.email,
      email: user.email,
      roles: user.roles,
      ...(user.tenantId === undefined ? {} : { tid: user.tenantId }),
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: 'JWT' })
      .setSubject(user.subject)
      .setIssuer(this.config.publicUrl)
      .setAudience(this.config.publicUrl)
      .setIssuedAt()
      .setExpirationTime(`${this.config.accessTokenTtlSeconds}s`)
      .sign(privateKey);
  }

  /** Checks signature, issuer, audience and expiry; throws InvalidAccessTokenError otherwise. */
  async verify(token: string): Promise<AuthenticatedUser> {
    const known = this.verified.get(token);
    if (known && Date.now() / 1000 < known.expiresAt && (await this.keys.publicKey(known.kid))) {
      return known.user;
    }
    this.verified.delete(token);
    const { user, kid, expiresAt } = await this.verifySignature(token);
    if (this.verified.size >= VERIFIED_TOKENS_MAX) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(token, { user, kid, expiresAt });
    return user;
  }

  private async verifySignature(token: string): Promise<VerifiedToken> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw new InvalidAccessTokenError('The access token is malformed');
    }
    const key = kid === undefined ? undefined : await this.keys.publicKey(kid);
    if (kid === undefined || !key) {
      throw new InvalidAccessTokenError('The access token is not signed by this server');
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.config.publicUrl,
        audience: this.config.publicUrl,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      throw new InvalidAccessTokenError(describeJoseError(error));
    }
    const claims = accessTokenClaims.safeParse(payload);
    if (!claims.success) throw new InvalidAccessTokenError('The access token claims are invalid');
    const { sub, name, email, roles, tid } = claims.data;
    const user = {
      subject: sub,
      email,
      name,
      roles,
      ...(tid === undefined ? {} : { tenantId: tid }),
    };
    // One object serves every request bearing this token: nobody may change it.
    Object.freeze(user.roles);
    // jwtVerify refused a token without `exp` (requiredClaims).
    return { user: Object.freeze(user), kid, expiresAt: payload.exp ?? 0 };
  }
}

function describeJoseError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The access token has expired';
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'The access token signature is invalid';
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    return `The access token ${error.claim} claim is invalid`;
  }
  return 'The access token is invalid';
}
