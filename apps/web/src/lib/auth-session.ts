/**
 * The auth session (spec part 1, sections 3 and 4): `{accessToken, userEmail}` kept in local
 * storage under `auth_tokens`. A user is signed in whenever an access token is present.
 *
 * The server holds the real session (an HttpOnly cookie); `GET /auth/session` hands the browser a
 * short-lived access token for the Bearer header. The stored copy only bridges page reloads until
 * that check has answered.
 */
// The subpath keeps zod (the contracts' schemas) out of the login screen's bundle.
import { sessionApi } from '@console/contracts/api';
import { ensureAppConfig, getAppConfig } from './app-config';
import {
  defaultStorage,
  parseJsonObject,
  readItem,
  removeItem,
  writeItem,
} from './browser-storage';
import { createExternalStore, useExternalStore } from './external-store';
import { AUTH_TOKENS_KEY } from './storage-keys';

export interface AuthTokens {
  accessToken: string;
  userEmail: string | null;
}

export interface AuthSession {
  isAuthenticated: boolean;
  accessToken: string | null;
  userEmail: string | null;
}

/** The answer of `GET /auth/session` (spec 3). */
export interface SessionStatusResponse {
  isAuthenticated: boolean;
  accessToken?: string;
  userEmail?: string;
}

export const SESSION_STATUS_PATH = sessionApi.status.path;

const SIGNED_OUT: AuthSession = { isAuthenticated: false, accessToken: null, userEmail: null };
const store = createExternalStore<AuthSession>(SIGNED_OUT);

/** Subscribers hear of a change only: the same session again notifies nobody. */
function setSession(next: AuthSession): void {
  const session = store.get();
  if (
    next.accessToken === session.accessToken &&
    next.userEmail === session.userEmail &&
    next.isAuthenticated === session.isAuthenticated
  ) {
    return;
  }
  store.set(next);
}

export const getAuthSession: () => AuthSession = store.get;

export const subscribeAuthSession = store.subscribe;

export function useAuthSession(): AuthSession {
  return useExternalStore(store);
}

/** Signs in and saves the tokens. An empty access token signs out instead. */
export function setTokens(tokens: AuthTokens, storage = defaultStorage()): void {
  if (!tokens.accessToken) {
    clearTokens(storage);
    return;
  }
  const userEmail = tokens.userEmail ?? null;
  writeItem(
    AUTH_TOKENS_KEY,
    JSON.stringify({ accessToken: tokens.accessToken, userEmail }),
    storage,
  );
  setSession({ isAuthenticated: true, accessToken: tokens.accessToken, userEmail });
}

/** Signs out and removes the tokens from storage. */
export function clearTokens(storage = defaultStorage()): void {
  removeItem(AUTH_TOKENS_KEY, storage);
  setSession(SIGNED_OUT);
}

/**
 * Reads the stored session. A value that cannot be read, is not JSON, or has no access token
 * string is cleared (spec 3). Runs once when this module loads.
 */
export function restoreAuthSession(storage = defaultStorage()): AuthSession {
  const raw = readItem(AUTH_TOKENS_KEY, storage);
  if (raw === null) {
    setSession(SIGNED_OUT);
    return store.get();
  }
  const tokens = parseStoredTokens(raw);
  if (tokens) {
    setSession({ isAuthenticated: true, ...tokens });
  } else {
    console.warn('[auth] The stored session could not be read and was cleared.');
    clearTokens(storage);
  }
  return store.get();
}

function parseStoredTokens(raw: string): AuthTokens | undefined {
  const value = parseJsonObject(raw);
  if (!value) return undefined;
  const { accessToken, userEmail } = value;
  if (typeof accessToken !== 'string' || accessToken === '') return undefined;
  if (userEmail !== undefined && userEmail !== null && typeof userEmail !== 'string') {
    return undefined;
  }
  return { accessToken, userEmail: userEmail ?? null };
}

restoreAuthSession();

// Signing in or out in another tab changes this tab's session too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === AUTH_TOKENS_KEY || event.key === null) restoreAuthSession();
  });
}

export interface SessionCheckDeps {
  fetch: typeof fetch;
  storage: Storage | undefined;
  logger: Pick<Console, 'error' | 'warn'>;
}

function defaultSessionDeps(): SessionCheckDeps {
  return {
    fetch: (...args) => globalThis.fetch(...args),
    storage: defaultStorage(),
    logger: console,
  };
}

/**
 * Asks the server whether its session is signed in (spec 4, "Session-status answer"): 200 with
 * isAuthenticated true stores the tokens; 200 with false, and 401, clear them; any other status,
 * an unreadable answer, or a network failure is logged and clears them. Never rejects.
 */
export async function checkSessionStatus(
  overrides?: Partial<SessionCheckDeps>,
): Promise<AuthSession> {
  const deps = { ...defaultSessionDeps(), ...overrides };
  let response: Response;
  try {
    response = await deps.fetch(SESSION_STATUS_PATH, {
      credentials: 'include',
      headers: { Accept: 'application/json' },
      cache: 'no-store',
    });
  } catch (cause) {
    deps.logger.error('[auth] Session status check failed: network error.', cause);
    clearTokens(deps.storage);
    return store.get();
  }

  // 401 is the server's ordinary "no session" answer (body `{isAuthenticated:false}`).
  if (response.status === 401) {
    clearTokens(deps.storage);
    return store.get();
  }
  if (!response.ok) {
    deps.logger.error(`[auth] Session status check failed with status ${response.status}.`);
    clearTokens(deps.storage);
    return store.get();
  }

  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    deps.logger.error('[auth] Session status answer is not JSON.', cause);
    clearTokens(deps.storage);
    return store.get();
  }
  const status = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (status.isAuthenticated === true && typeof status.accessToken === 'string') {
    setTokens(
      {
        accessToken: status.accessToken,
        userEmail: typeof status.userEmail === 'string' ? status.userEmail : null,
      },
      deps.storage,
    );
  } else {
    if (status.isAuthenticated !== false) {
      deps.logger.error('[auth] Session status answer is malformed.', body);
    }
    clearTokens(deps.storage);
  }
  return store.get();
}

export interface StartupDeps {
  loadConfig: () => Promise<unknown>;
  checkSession: () => Promise<unknown>;
  logger: Pick<Console, 'error'>;
}

/**
 * Startup (spec 4): 1. load the configuration; 2. if it loaded, check the server-side session,
 * otherwise skip the check and clear the stored tokens. Never rejects: the caller mounts the app
 * in every case (step 3), even after a fatal startup error.
 */
export async function runStartup(overrides?: Partial<StartupDeps>): Promise<void> {
  const deps: StartupDeps = {
    loadConfig: () => ensureAppConfig(),
    checkSession: () => checkSessionStatus(),
    logger: console,
    ...overrides,
  };
  try {
    await deps.loadConfig();
    if (getAppConfig().status === 'loaded') {
      await deps.checkSession();
    } else {
      clearTokens();
    }
  } catch (cause) {
    deps.logger.error('[startup] Fatal startup error; the app mounts anyway.', cause);
  }
}
