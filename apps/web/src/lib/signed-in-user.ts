/**
 * Who is signed in, for the sidebar footer and the user menu (spec part 1, section 3), and what
 * the token's roles allow the UI to show (section 6).
 */
import { useMemo } from 'react';
import { useAuthSession } from './auth-session';
import { decodeTokenPayload, rolesClaim, stringClaim } from './token';

export interface SignedInUser {
  name: string;
  email: string;
  /** Always empty: the sidebar shows the initials instead (spec 3). */
  avatar: string;
  initials: string;
}

export const NOT_LOGGED_IN_NAME = 'Not Logged In';
export const UNNAMED_USER_NAME = 'User';

/**
 * The signed-in user as displayed: name from `name`, then `preferred_username`, then 'User';
 * email from the `upn` claim only, as the spec says (our server mints `upn` into every token, so
 * no fallback to `email` is needed); no token gives 'Not Logged In' and an empty email.
 */
export function signedInUser(accessToken?: string | null): SignedInUser {
  if (!accessToken) {
    return {
      name: NOT_LOGGED_IN_NAME,
      email: '',
      avatar: '',
      initials: initials(NOT_LOGGED_IN_NAME),
    };
  }
  const payload = decodeTokenPayload(accessToken);
  const name =
    stringClaim(payload, 'name') ?? stringClaim(payload, 'preferred_username') ?? UNNAMED_USER_NAME;
  const email = stringClaim(payload, 'upn') ?? '';
  return { name, email, avatar: '', initials: initials(name) };
}

/**
 * First letter of the first and of the last word; the first two letters of a single word; '??'
 * when the name is empty. Upper-cased, letter by letter (a letter whose upper case is longer,
 * like 'ß', stays as it is, so the result never exceeds two characters).
 */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  const last = words[words.length - 1];
  if (first === undefined || last === undefined) return '??';
  const letters =
    words.length === 1 ? Array.from(first).slice(0, 2) : [firstChar(first), firstChar(last)];
  return letters.map(upperCaseLetter).join('');
}

function firstChar(word: string): string {
  return Array.from(word)[0] ?? '';
}

function upperCaseLetter(letter: string): string {
  const upper = letter.toUpperCase();
  return Array.from(upper).length === 1 ? upper : letter;
}

/**
 * Whether the token carries a role. The server decides roles at sign-in (ARCHITECTURE "roles":
 * `admin`, `staff`, `tenant`) and enforces them on every call; the UI only hides what it refuses.
 */
export function hasRole(accessToken: string | null | undefined, role: string): boolean {
  return rolesClaim(decodeTokenPayload(accessToken)).includes(role);
}

/**
 * Spec 6 derives the admin flag in the browser from a fixed list of two email addresses. We
 * replace that list with the server's `admin` role (from `ADMIN_EMAILS`), so no address is
 * shipped in the app and the browser and the server cannot disagree.
 */
export function isAdmin(accessToken: string | null | undefined): boolean {
  return hasRole(accessToken, 'admin');
}

/** The signed-in user of the current session, for components. */
export function useSignedInUser(): SignedInUser {
  const { accessToken } = useAuthSession();
  return useMemo(() => signedInUser(accessToken), [accessToken]);
}

/** Whether the current session's token carries the `admin` role, for components. */
export function useIsAdmin(): boolean {
  const { accessToken } = useAuthSession();
  return useMemo(() => isAdmin(accessToken), [accessToken]);
}
