/**
 * Startup configuration (spec part 1, sections 4, 5, 8 and 9).
 *
 * `GET /app-config` on our own origin answers `{apiBaseUrl}`. Server errors (status 500 or above)
 * and network failures are retried at most 3 times, waiting 1 s, 2 s and 4 s; every other failure
 * is final at once. When loading fails the app falls back to a cached address under 24 hours old,
 * otherwise to the relative `/api` (the server also accepts `/api/api/...` for that reason).
 * Failures are only logged to the console, never shown to the user.
 */
// The subpath keeps zod (the contracts' schemas) out of the login screen's bundle.
import { sessionApi } from '@console/contracts/api';
import { defaultStorage, parseJsonObject, readItem, writeItem } from './browser-storage';
import { createExternalStore, useExternalStore } from './external-store';
import { APP_CONFIG_CACHE_KEY } from './storage-keys';

export const APP_CONFIG_ENDPOINT = sessionApi.appConfig.path;
export const CONFIG_MAX_RETRIES = 3;
export const CONFIG_RETRY_BASE_DELAY_MS = 1000;
export const CONFIG_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
export const FALLBACK_API_BASE = '/api';

export type ConfigErrorType =
  'missing_data' | 'invalid_response' | 'server_error' | 'network_error' | 'unknown_error';

export interface ConfigError {
  type: ConfigErrorType;
  message: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  details?: unknown;
}

export interface AppConfigCache {
  apiBaseUrl: string;
  /** Milliseconds since the epoch when the address was loaded. */
  timestamp: number;
}

export type AppConfigStatus = 'not_loaded' | 'loaded' | 'fallback';

export interface AppConfigState {
  status: AppConfigStatus;
  /** An absolute http(s) URL whenever status is not 'not_loaded'. */
  apiBaseUrl: string | null;
}

export interface AppConfigDeps {
  fetch: typeof fetch;
  storage: Storage | undefined;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  logger: Pick<Console, 'error' | 'warn'>;
  /** Origin the relative fallback `/api` is resolved against. */
  origin: string;
}

function defaultDeps(): AppConfigDeps {
  return {
    fetch: (...args) => globalThis.fetch(...args),
    storage: defaultStorage(),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    logger: console,
    origin: typeof window === 'undefined' ? '' : window.location.origin,
  };
}

/** Spec 5: a base URL must be non-empty and a valid absolute URL (we also require http or https). */
export function isValidAbsoluteUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() === '') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The store

const NOT_LOADED: AppConfigState = { status: 'not_loaded', apiBaseUrl: null };
const store = createExternalStore<AppConfigState>(NOT_LOADED);
let inflight: Promise<AppConfigState> | null = null;

export const getAppConfig: () => AppConfigState = store.get;

export const subscribeAppConfig = store.subscribe;

export function useAppConfig(): AppConfigState {
  return useExternalStore(store);
}

/** Back to 'not_loaded' (tests, or a forced reload). Listeners stay subscribed. */
export function resetAppConfig(): void {
  inflight = null;
  store.set(NOT_LOADED);
}

/**
 * Loads the configuration unless it is already loaded (or fell back). Concurrent callers share
 * one load. Never rejects.
 */
export function ensureAppConfig(deps?: Partial<AppConfigDeps>): Promise<AppConfigState> {
  if (store.get().status !== 'not_loaded') return Promise.resolve(store.get());
  if (!inflight) {
    const load = loadAppConfig(deps).finally(() => {
      if (inflight === load) inflight = null;
    });
    inflight = load;
  }
  return inflight;
}

// ---------------------------------------------------------------------------------------------
// Loading

type Attempt = { ok: true; apiBaseUrl: string } | { ok: false; error: ConfigError };

/** Spec 4: only a server error (status 500 or above) or a network failure is retried. */
function isRetryable(error: ConfigError): boolean {
  return error.type === 'server_error' || error.type === 'network_error';
}

/**
 * Fetches `/app-config` with the spec's retries, then caches the address, or applies the
 * fallback. Updates the store and resolves to its new state; never rejects.
 */
export async function loadAppConfig(overrides?: Partial<AppConfigDeps>): Promise<AppConfigState> {
  const deps = { ...defaultDeps(), ...overrides };
  try {
    for (let retry = 0; ; retry++) {
      const attempt = await fetchConfigOnce(deps);
      if (attempt.ok) {
        const cache: AppConfigCache = { apiBaseUrl: attempt.apiBaseUrl, timestamp: deps.now() };
        if (!writeItem(APP_CONFIG_CACHE_KEY, JSON.stringify(cache), deps.storage)) {
          deps.logger.warn('[config] Could not cache the configuration in local storage.');
        }
        store.set({ status: 'loaded', apiBaseUrl: attempt.apiBaseUrl });
        return store.get();
      }
      deps.logger.error(`[config] ${attempt.error.type}: ${attempt.error.message}`, attempt.error);
      if (!isRetryable(attempt.error) || retry >= CONFIG_MAX_RETRIES) break;
      const wait = CONFIG_RETRY_BASE_DELAY_MS * 2 ** retry;
      deps.logger.warn(
        `[config] Retrying in ${wait} ms (retry ${retry + 1} of ${CONFIG_MAX_RETRIES}).`,
      );
      await deps.sleep(wait);
    }
  } catch (cause) {
    // Only a faulty dependency (logger, sleep, clock) gets here; still end with a fallback.
    const error = configError(
      deps,
      'unknown_error',
      'Unexpected error while loading the configuration',
      {
        reason: reasonOf(cause),
      },
    );
    deps.logger.error(`[config] ${error.type}: ${error.message}`, error);
  }
  return applyFallback(deps);
}

async function fetchConfigOnce(deps: AppConfigDeps): Promise<Attempt> {
  let response: Response;
  let text: string;
  try {
    response = await deps.fetch(APP_CONFIG_ENDPOINT, {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
    });
  } catch (cause) {
    return failure(deps, 'network_error', `Network error while fetching ${APP_CONFIG_ENDPOINT}`, {
      reason: reasonOf(cause),
    });
  }

  const http = { status: response.status, statusText: response.statusText };
  if (response.status >= 500) {
    return failure(
      deps,
      'server_error',
      `Configuration server error: status ${response.status}`,
      http,
    );
  }
  // Spec 8: 404 means the endpoint is not implemented and other HTTP errors are recorded; neither
  // is retried. Both mean the answer is not a configuration, hence invalid_response.
  if (response.status === 404) {
    return failure(deps, 'invalid_response', 'Configuration endpoint not implemented (404)', http);
  }
  if (!response.ok) {
    return failure(
      deps,
      'invalid_response',
      `Configuration request failed with status ${response.status}`,
      http,
    );
  }

  try {
    text = await response.text();
  } catch (cause) {
    // The connection broke while the body was read: a network failure like any other.
    return failure(deps, 'network_error', 'Network error while reading the configuration', {
      reason: reasonOf(cause),
    });
  }

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    return failure(deps, 'invalid_response', 'Configuration response is not valid JSON', {
      reason: reasonOf(cause),
    });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return failure(deps, 'invalid_response', 'Configuration response is not a JSON object', {
      body,
    });
  }

  const apiBaseUrl = (body as { apiBaseUrl?: unknown }).apiBaseUrl;
  if (
    apiBaseUrl === undefined ||
    apiBaseUrl === null ||
    (typeof apiBaseUrl === 'string' && apiBaseUrl.trim() === '')
  ) {
    return failure(deps, 'missing_data', 'Configuration response has no apiBaseUrl', { body });
  }
  if (!isValidAbsoluteUrl(apiBaseUrl)) {
    return failure(
      deps,
      'invalid_response',
      'Configuration apiBaseUrl is not a valid absolute URL',
      { apiBaseUrl },
    );
  }
  return { ok: true, apiBaseUrl: apiBaseUrl.trim() };
}

function applyFallback(deps: AppConfigDeps): AppConfigState {
  const cached = readCachedBaseUrl(deps);
  if (cached) {
    deps.logger.warn(`[config] Using the cached API base URL ${cached}.`);
    store.set({ status: 'fallback', apiBaseUrl: cached });
    return store.get();
  }

  const relative = resolveAgainstOrigin(FALLBACK_API_BASE, deps.origin);
  if (relative) {
    deps.logger.warn(`[config] Using the default API base URL ${relative}.`);
    store.set({ status: 'fallback', apiBaseUrl: relative });
    return store.get();
  }

  const error = configError(
    deps,
    'unknown_error',
    'CRITICAL: no valid API base URL: the configuration failed and no fallback is usable',
    { origin: deps.origin },
  );
  deps.logger.error(`[config] ${error.message}`, error);
  store.set(NOT_LOADED);
  return store.get();
}

/** The cached address when it is readable, under 24 hours old and a valid absolute URL. */
function readCachedBaseUrl(deps: AppConfigDeps): string | null {
  const raw = readItem(APP_CONFIG_CACHE_KEY, deps.storage);
  if (raw === null) return null;
  const cache: Partial<Record<keyof AppConfigCache, unknown>> | undefined = parseJsonObject(raw);
  if (!cache) return null;
  const { apiBaseUrl, timestamp } = cache;
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) return null;
  const age = deps.now() - timestamp;
  if (age < 0 || age >= CONFIG_CACHE_MAX_AGE_MS) return null;
  return isValidAbsoluteUrl(apiBaseUrl) ? apiBaseUrl.trim() : null;
}

/** `/api` against the page's origin, e.g. `https://console.example/api`; null if unusable. */
function resolveAgainstOrigin(path: string, origin: string): string | null {
  try {
    const url = new URL(path, origin).href;
    return isValidAbsoluteUrl(url) ? url : null;
  } catch {
    return null;
  }
}

function configError(
  deps: AppConfigDeps,
  type: ConfigErrorType,
  message: string,
  details: unknown,
): ConfigError {
  return { type, message, timestamp: deps.now(), details };
}

function failure(
  deps: AppConfigDeps,
  type: ConfigErrorType,
  message: string,
  details: unknown,
): Attempt {
  return { ok: false, error: configError(deps, type, message, details) };
}

function reasonOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
