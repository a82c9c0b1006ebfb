import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import {
  ensureAppConfig,
  getAppConfig,
  isValidAbsoluteUrl,
  loadAppConfig,
  resetAppConfig,
  subscribeAppConfig,
  useAppConfig,
  type AppConfigDeps,
  type ConfigError,
} from './app-config';
import { APP_CONFIG_CACHE_KEY } from './storage-keys';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const HOUR = 60 * 60 * 1000;
/** What loading gives when the server's configuration cannot be used. */
const FALLBACK = { status: 'fallback', apiBaseUrl: 'https://console.example/api' };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

type LogFn = (...args: unknown[]) => void;
let logger: { error: Mock<LogFn>; warn: Mock<LogFn> };

function deps(fetch: (input: RequestInfo | URL) => Promise<Response>): Partial<AppConfigDeps> {
  return {
    fetch: vi.fn(fetch) as unknown as typeof globalThis.fetch,
    now: () => NOW,
    sleep: () => Promise.resolve(),
    logger,
    origin: 'https://console.example',
  };
}

/** The config errors logged so far. */
function loggedErrors(): ConfigError[] {
  return logger.error.mock.calls
    .map((call) => call[1] as ConfigError | undefined)
    .filter((error): error is ConfigError => error !== undefined && 'type' in error);
}

/** Loads the configuration from `fetch` and expects exactly one try: no retry. */
async function loadWithoutRetry(fetch: (input: RequestInfo | URL) => Promise<Response>) {
  const d = deps(fetch);
  const result = await loadAppConfig(d);
  expect(d.fetch).toHaveBeenCalledTimes(1);
  return result;
}

function cache(apiBaseUrl: unknown, timestamp: unknown): void {
  localStorage.setItem(APP_CONFIG_CACHE_KEY, JSON.stringify({ apiBaseUrl, timestamp }));
}

beforeEach(() => {
  localStorage.clear();
  resetAppConfig();
  logger = { error: vi.fn<LogFn>(), warn: vi.fn<LogFn>() };
});

afterEach(() => {
  vi.useRealTimers();
});

describe('isValidAbsoluteUrl', () => {
  it.each([
    ['https://api.example.com', true],
    ['http://localhost:3000/base/', true],
    ['', false],
    ['   ', false],
    ['/api', false],
    ['api.example.com', false],
    ['ftp://files.example.com', false],
    ['javascript:alert(1)', false],
    [42, false],
    [null, false],
  ])('%j is valid: %s', (value, valid) => {
    expect(isValidAbsoluteUrl(value)).toBe(valid);
  });
});

describe('loadAppConfig', () => {
  it('loads the API base URL from GET /app-config and caches it', async () => {
    const d = deps(async () => json({ apiBaseUrl: 'https://api.example.com' }));
    const result = await loadAppConfig(d);

    expect(d.fetch).toHaveBeenCalledTimes(1);
    expect(vi.mocked(d.fetch!).mock.calls[0]![0]).toBe('/app-config');
    expect(result).toEqual({ status: 'loaded', apiBaseUrl: 'https://api.example.com' });
    expect(getAppConfig()).toEqual(result);
    expect(JSON.parse(localStorage.getItem(APP_CONFIG_CACHE_KEY)!)).toEqual({
      apiBaseUrl: 'https://api.example.com',
      timestamp: NOW,
    });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('records a missing apiBaseUrl as missing_data, without retrying, and falls back', async () => {
    for (const body of [{}, { apiBaseUrl: '' }, { apiBaseUrl: '  ' }, { apiBaseUrl: null }]) {
      resetAppConfig();
      logger.error.mockClear();
      const result = await loadWithoutRetry(async () => json(body));
      expect(loggedErrors().map((e) => e.type)).toEqual(['missing_data']);
      expect(result).toEqual(FALLBACK);
    }
    expect(localStorage.getItem(APP_CONFIG_CACHE_KEY)).toBeNull();
  });

  it('records an unparseable answer as invalid_response, without retrying', async () => {
    const result = await loadWithoutRetry(
      async () => new Response('<html>oops</html>', { status: 200 }),
    );
    const [error] = loggedErrors();
    expect(error).toMatchObject({ type: 'invalid_response', timestamp: NOW });
    expect(typeof error!.message).toBe('string');
    expect(error).toHaveProperty('details');
    expect(result.status).toBe('fallback');
  });

  it.each(['not a url', '/api', 'ftp://api.example.com', 42])(
    'rejects the badly formatted apiBaseUrl %j as invalid_response',
    async (apiBaseUrl) => {
      const result = await loadWithoutRetry(async () => json({ apiBaseUrl }));
      expect(loggedErrors().map((e) => e.type)).toEqual(['invalid_response']);
      expect(result).toEqual(FALLBACK);
      expect(localStorage.getItem(APP_CONFIG_CACHE_KEY)).toBeNull();
    },
  );

  it('records a 404 as the endpoint not implemented, without retrying', async () => {
    const result = await loadWithoutRetry(async () => new Response('Not Found', { status: 404 }));
    const [error] = loggedErrors();
    expect(error).toMatchObject({ type: 'invalid_response', details: { status: 404 } });
    expect(error!.message).toMatch(/not implemented/);
    expect(result.status).toBe('fallback');
  });

  it.each([400, 401, 403, 418])('records HTTP %i without retrying', async (status) => {
    await loadWithoutRetry(async () => new Response('', { status }));
    expect(loggedErrors()).toEqual([
      expect.objectContaining({
        type: 'invalid_response',
        details: expect.objectContaining({ status }),
      }),
    ]);
    expect(getAppConfig().status).toBe('fallback');
  });

  it('records status 500 or above as server_error and retries', async () => {
    const answers = [502, 500, 503];
    const d = deps(async () => {
      const status = answers.shift();
      return status
        ? new Response('', { status })
        : json({ apiBaseUrl: 'https://api.example.com' });
    });
    const result = await loadAppConfig(d);
    expect(d.fetch).toHaveBeenCalledTimes(4);
    expect(loggedErrors().map((e) => e.type)).toEqual([
      'server_error',
      'server_error',
      'server_error',
    ]);
    expect(result).toEqual({ status: 'loaded', apiBaseUrl: 'https://api.example.com' });
  });

  it('records a network failure as network_error and retries', async () => {
    let calls = 0;
    const d = deps(async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch');
      return json({ apiBaseUrl: 'https://api.example.com' });
    });
    await loadAppConfig(d);
    expect(loggedErrors()).toEqual([
      expect.objectContaining({ type: 'network_error', details: { reason: 'Failed to fetch' } }),
    ]);
    expect(getAppConfig().status).toBe('loaded');
  });

  it('records a failure of its own machinery as unknown_error and still falls back', async () => {
    const d = {
      ...deps(async () => new Response('', { status: 500 })),
      sleep: () => Promise.reject(new Error('timer broke')),
    };
    const result = await loadAppConfig(d);
    expect(loggedErrors().map((e) => e.type)).toEqual(['server_error', 'unknown_error']);
    expect(result).toEqual(FALLBACK);
  });

  it('retries at most 3 times, waiting 1 s, 2 s and 4 s, then falls back', async () => {
    vi.useFakeTimers({ now: NOW });
    const fetch = vi.fn(async () => new Response('', { status: 500 }));
    const { sleep: _realSleepIsUsed, ...rest } = deps(fetch);
    const loading = loadAppConfig({ ...rest, fetch: fetch as unknown as typeof globalThis.fetch });
    let settled = false;
    void loading.then(() => (settled = true));

    // [ms to advance, tries made by then]: each wait ends 1 ms short of the next try, then
    // reaches it.
    const steps: [number, number][] = [
      [0, 1],
      [999, 1],
      [1, 2],
      [1999, 2],
      [1, 3],
      [3999, 3],
    ];
    for (const [ms, tries] of steps) {
      await vi.advanceTimersByTimeAsync(ms);
      expect(fetch).toHaveBeenCalledTimes(tries);
    }
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(4);

    await expect(loading).resolves.toEqual({
      status: 'fallback',
      apiBaseUrl: 'https://console.example/api',
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(loggedErrors()).toHaveLength(4);
  });

  it('uses a cached address under 24 hours old', async () => {
    cache('https://cached.example.com', NOW - 23 * HOUR);
    const result = await loadAppConfig(deps(async () => new Response('', { status: 404 })));
    expect(result).toEqual({ status: 'fallback', apiBaseUrl: 'https://cached.example.com' });
  });

  it.each([
    ['24 hours old', 'https://cached.example.com', NOW - 24 * HOUR],
    ['older', 'https://cached.example.com', NOW - 48 * HOUR],
    ['from the future', 'https://cached.example.com', NOW + HOUR],
    ['without a timestamp', 'https://cached.example.com', undefined],
    ['with an invalid address', 'not a url', NOW - HOUR],
    ['with a relative address', '/api', NOW - HOUR],
  ])('ignores a cached address %s and uses /api', async (_label, apiBaseUrl, timestamp) => {
    cache(apiBaseUrl, timestamp);
    const result = await loadAppConfig(deps(async () => new Response('', { status: 404 })));
    expect(result).toEqual(FALLBACK);
  });

  it('ignores an unreadable cache', async () => {
    localStorage.setItem(APP_CONFIG_CACHE_KEY, '{not json');
    const result = await loadAppConfig(deps(async () => new Response('', { status: 404 })));
    expect(result.apiBaseUrl).toBe('https://console.example/api');
  });

  it("resolves the relative fallback /api against the page's origin by default", async () => {
    const { origin: _origin, ...rest } = deps(async () => new Response('', { status: 404 }));
    const result = await loadAppConfig(rest);
    expect(result).toEqual({ status: 'fallback', apiBaseUrl: `${window.location.origin}/api` });
  });

  it('only logs a critical error when no fallback is usable', async () => {
    const result = await loadAppConfig({
      ...deps(async () => new Response('', { status: 404 })),
      origin: 'null',
    });
    expect(result).toEqual({ status: 'not_loaded', apiBaseUrl: null });
    expect(logger.error).toHaveBeenLastCalledWith(
      expect.stringMatching(/CRITICAL/),
      expect.objectContaining({ type: 'unknown_error' }),
    );
  });

  it('logs through the console by default, never throwing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 404 })),
    );
    try {
      await expect(loadAppConfig()).resolves.toMatchObject({ status: 'fallback' });
      expect(error).toHaveBeenCalled();
      expect(warn).toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
      error.mockRestore();
      warn.mockRestore();
    }
  });
});

describe('the config store', () => {
  it('notifies subscribers and the hook', async () => {
    const listener = vi.fn();
    const unsubscribe = subscribeAppConfig(listener);
    const { result } = renderHook(() => useAppConfig());
    expect(result.current).toEqual({ status: 'not_loaded', apiBaseUrl: null });

    await act(() =>
      loadAppConfig(deps(async () => json({ apiBaseUrl: 'https://api.example.com' }))),
    );
    expect(listener).toHaveBeenCalled();
    expect(result.current).toEqual({ status: 'loaded', apiBaseUrl: 'https://api.example.com' });

    unsubscribe();
    listener.mockClear();
    act(() => resetAppConfig());
    expect(listener).not.toHaveBeenCalled();
    expect(result.current.status).toBe('not_loaded');
  });

  it('ensureAppConfig shares one load between concurrent callers', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const d = deps(async () => {
      await gate;
      return json({ apiBaseUrl: 'https://api.example.com' });
    });
    const first = ensureAppConfig(d);
    const second = ensureAppConfig(d);
    release();
    await expect(Promise.all([first, second])).resolves.toEqual([
      { status: 'loaded', apiBaseUrl: 'https://api.example.com' },
      { status: 'loaded', apiBaseUrl: 'https://api.example.com' },
    ]);
    expect(d.fetch).toHaveBeenCalledTimes(1);

    await ensureAppConfig(d);
    expect(d.fetch).toHaveBeenCalledTimes(1);
  });

  it('ensureAppConfig does not reload after a fallback, but does after a failed load', async () => {
    const d = deps(async () => new Response('', { status: 404 }));
    await ensureAppConfig({ ...d, origin: 'null' });
    expect(getAppConfig().status).toBe('not_loaded');
    await ensureAppConfig(d);
    expect(getAppConfig().status).toBe('fallback');
    await ensureAppConfig(d);
    expect(d.fetch).toHaveBeenCalledTimes(2);
  });
});
