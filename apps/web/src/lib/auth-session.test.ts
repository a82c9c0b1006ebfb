import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { getAppConfig, resetAppConfig } from './app-config';
import {
  checkSessionStatus,
  clearTokens,
  getAuthSession,
  restoreAuthSession,
  runStartup,
  setTokens,
  subscribeAuthSession,
  useAuthSession,
} from './auth-session';
import { AUTH_TOKENS_KEY } from './storage-keys';

const SIGNED_OUT = { isAuthenticated: false, accessToken: null, userEmail: null };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function stored(): unknown {
  const raw = localStorage.getItem(AUTH_TOKENS_KEY);
  return raw === null ? null : JSON.parse(raw);
}

type LogFn = (...args: unknown[]) => void;
let logger: { error: Mock<LogFn>; warn: Mock<LogFn> };

beforeEach(() => {
  clearTokens();
  localStorage.clear();
  resetAppConfig();
  logger = { error: vi.fn<LogFn>(), warn: vi.fn<LogFn>() };
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('tokens', () => {
  it('setTokens signs in and saves; clearTokens signs out and removes', () => {
    setTokens({ accessToken: 'token-1', userEmail: 'ada@example.com' });
    expect(getAuthSession()).toEqual({
      isAuthenticated: true,
      accessToken: 'token-1',
      userEmail: 'ada@example.com',
    });
    expect(stored()).toEqual({ accessToken: 'token-1', userEmail: 'ada@example.com' });

    clearTokens();
    expect(getAuthSession()).toEqual(SIGNED_OUT);
    expect(localStorage.getItem(AUTH_TOKENS_KEY)).toBeNull();
  });

  it('is signed in whenever an access token is present', () => {
    setTokens({ accessToken: 'token-1', userEmail: null });
    expect(getAuthSession().isAuthenticated).toBe(true);
    setTokens({ accessToken: '', userEmail: 'ada@example.com' });
    expect(getAuthSession()).toEqual(SIGNED_OUT);
    expect(localStorage.getItem(AUTH_TOKENS_KEY)).toBeNull();
  });

  it('notifies subscribers and the hook', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeAuthSession(listener);
    const { result } = renderHook(() => useAuthSession());
    act(() => setTokens({ accessToken: 'token-1', userEmail: 'ada@example.com' }));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(result.current.accessToken).toBe('token-1');
    unsubscribe();
    act(() => clearTokens());
    expect(listener).toHaveBeenCalledTimes(1);
    expect(result.current).toEqual(SIGNED_OUT);
  });
});

describe('restoreAuthSession', () => {
  it('restores the stored session', () => {
    localStorage.setItem(
      AUTH_TOKENS_KEY,
      JSON.stringify({ accessToken: 'token-1', userEmail: 'ada@example.com' }),
    );
    expect(restoreAuthSession()).toEqual({
      isAuthenticated: true,
      accessToken: 'token-1',
      userEmail: 'ada@example.com',
    });
  });

  it('is signed out when nothing is stored', () => {
    expect(restoreAuthSession()).toEqual(SIGNED_OUT);
  });

  it.each([
    ['not JSON', '{"accessToken":'],
    ['JSON null', 'null'],
    ['a string', '"token-1"'],
    ['no access token', '{"userEmail":"ada@example.com"}'],
    ['an empty access token', '{"accessToken":"","userEmail":"ada@example.com"}'],
    ['a numeric access token', '{"accessToken":5,"userEmail":"ada@example.com"}'],
    ['a non-string email', '{"accessToken":"token-1","userEmail":{"a":1}}'],
  ])('clears and removes a stored value that is %s', (_label, raw) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    setTokens({ accessToken: 'previous', userEmail: null });
    localStorage.setItem(AUTH_TOKENS_KEY, raw);
    expect(restoreAuthSession()).toEqual(SIGNED_OUT);
    expect(localStorage.getItem(AUTH_TOKENS_KEY)).toBeNull();
  });

  it('clears the session when storage cannot be read', () => {
    setTokens({ accessToken: 'previous', userEmail: null });
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      removeItem: vi.fn(),
    } as unknown as Storage;
    expect(restoreAuthSession(broken)).toEqual(SIGNED_OUT);
  });

  it('runs when the module loads, clearing an unreadable value', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem(AUTH_TOKENS_KEY, JSON.stringify({ accessToken: 't', userEmail: 'a@b.c' }));
    vi.resetModules();
    const fresh = await import('./auth-session');
    expect(fresh.getAuthSession()).toEqual({
      isAuthenticated: true,
      accessToken: 't',
      userEmail: 'a@b.c',
    });

    localStorage.setItem(AUTH_TOKENS_KEY, 'garbage');
    vi.resetModules();
    const again = await import('./auth-session');
    expect(again.getAuthSession()).toEqual(SIGNED_OUT);
    expect(localStorage.getItem(AUTH_TOKENS_KEY)).toBeNull();
  });

  it('follows sign-in and sign-out in another tab', () => {
    localStorage.setItem(
      AUTH_TOKENS_KEY,
      JSON.stringify({ accessToken: 'other-tab', userEmail: null }),
    );
    window.dispatchEvent(new StorageEvent('storage', { key: AUTH_TOKENS_KEY }));
    expect(getAuthSession().accessToken).toBe('other-tab');
    localStorage.removeItem(AUTH_TOKENS_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: AUTH_TOKENS_KEY }));
    expect(getAuthSession()).toEqual(SIGNED_OUT);
  });
});

describe('checkSessionStatus', () => {
  it('asks /auth/session on our origin with credentials, and stores the tokens when signed in', async () => {
    const fetch = vi.fn(async () =>
      json({ isAuthenticated: true, accessToken: 'server-token', userEmail: 'ada@example.com' }),
    );
    vi.stubGlobal('fetch', fetch);
    const session = await checkSessionStatus({ logger });
    expect(fetch).toHaveBeenCalledWith(
      '/auth/session',
      expect.objectContaining({ credentials: 'include' }),
    );
    expect(session).toEqual({
      isAuthenticated: true,
      accessToken: 'server-token',
      userEmail: 'ada@example.com',
    });
    expect(stored()).toEqual({ accessToken: 'server-token', userEmail: 'ada@example.com' });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it.each([
    ['OK with isAuthenticated false', () => json({ isAuthenticated: false })],
    ['401 with isAuthenticated false', () => json({ isAuthenticated: false }, 401)],
    ['401 with no body', () => new Response(null, { status: 401 })],
  ])('clears the tokens without an error log on %s', async (_label, answer) => {
    setTokens({ accessToken: 'stale', userEmail: 'ada@example.com' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer()),
    );
    await expect(checkSessionStatus({ logger })).resolves.toEqual(SIGNED_OUT);
    expect(localStorage.getItem(AUTH_TOKENS_KEY)).toBeNull();
    expect(logger.error).not.toHaveBeenCalled();
  });

  it.each([
    ['status 500', async () => new Response('boom', { status: 500 })],
    ['status 403', async () => json({ message: 'Forbidden' }, 403)],
    [
      'a network failure',
      async () => {
        throw new TypeError('Failed to fetch');
      },
    ],
    ['an OK answer that is not JSON', async () => new Response('<html>', { status: 200 })],
    ['an OK signed-in answer without a token', async () => json({ isAuthenticated: true })],
  ])('logs and clears the tokens on %s', async (_label, answer) => {
    setTokens({ accessToken: 'stale', userEmail: 'ada@example.com' });
    vi.stubGlobal('fetch', vi.fn(answer));
    await expect(checkSessionStatus({ logger })).resolves.toEqual(SIGNED_OUT);
    expect(localStorage.getItem(AUTH_TOKENS_KEY)).toBeNull();
    expect(logger.error).toHaveBeenCalledTimes(1);
  });
});

describe('runStartup', () => {
  function stubServer(config: () => Response, session: () => Response) {
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url === '/app-config') return config();
      if (url === '/auth/session') return session();
      throw new Error(`unexpected ${url}`);
    });
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }

  it('loads the configuration, then checks the session', async () => {
    const fetch = stubServer(
      () => json({ apiBaseUrl: 'https://console.example' }),
      () => json({ isAuthenticated: true, accessToken: 'server-token', userEmail: 'a@b.c' }),
    );
    await runStartup();
    expect(fetch.mock.calls.map((call) => call[0])).toEqual(['/app-config', '/auth/session']);
    expect(getAppConfig().status).toBe('loaded');
    expect(getAuthSession().accessToken).toBe('server-token');
  });

  it('skips the session check and clears stored tokens when the configuration did not load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    setTokens({ accessToken: 'stored', userEmail: 'a@b.c' });
    const fetch = stubServer(
      () => new Response('', { status: 404 }),
      () => json({ isAuthenticated: true, accessToken: 'server-token', userEmail: 'a@b.c' }),
    );
    await runStartup();
    expect(fetch.mock.calls.map((call) => call[0])).toEqual(['/app-config']);
    expect(getAppConfig().status).toBe('fallback');
    expect(getAuthSession()).toEqual(SIGNED_OUT);
    expect(localStorage.getItem(AUTH_TOKENS_KEY)).toBeNull();
  });

  it('never rejects, even after a fatal error', async () => {
    const checkSession = vi.fn();
    await expect(
      runStartup({
        loadConfig: () => Promise.reject(new Error('fatal')),
        checkSession,
        logger,
      }),
    ).resolves.toBeUndefined();
    expect(checkSession).not.toHaveBeenCalled();
    expect(logger.error).toHaveBeenCalledWith(expect.any(String), expect.any(Error));
  });
});
