/**
 * Reading the access token (spec part 1, section 5). The server verifies every token; the browser
 * only reads the payload to show who is signed in and to hide what the server would refuse.
 */

/** Claims the server mints into the access token (docs: ARCHITECTURE "access token"). */
export interface TokenPayload {
  sub?: string;
  name?: string;
  preferred_username?: string;
  upn?: string;
  email?: string;
  roles?: string[];
  /** Tenant id, for tenant-portal users. */
  tid?: number;
  /** Expiry, seconds since the epoch. */
  exp?: number;
  /** Claims arrive unchecked from JSON: read them through the helpers below. */
  [claim: string]: unknown;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The payload of a JWT: the second dot-separated segment, base64url-encoded JSON. Undefined when
 * the segment is missing or is not base64url of a UTF-8 JSON object. The signature is not checked.
 */
export function decodeTokenPayload(token: string | null | undefined): TokenPayload | undefined {
  const segment = token?.split('.')[1];
  if (!segment || !BASE64URL.test(segment) || segment.length % 4 === 1) return undefined;
  try {
    const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
    return payload as TokenPayload;
  } catch {
    return undefined;
  }
}

/** A claim that must be a non-blank string; anything else counts as absent. */
export function stringClaim(payload: TokenPayload | undefined, claim: string): string | undefined {
  const value = payload?.[claim];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The `roles` claim as a list of strings (non-strings dropped; missing means none). */
export function rolesClaim(payload: TokenPayload | undefined): string[] {
  const roles = payload?.roles;
  return Array.isArray(roles)
    ? roles.filter((role): role is string => typeof role === 'string')
    : [];
}
