import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from './api-client';
import type * as appConfig from './app-config';
import { ensureAppConfig, type AppConfigState } from './app-config';

// vi.mock is hoisted above the imports. The configuration store is replaced here to reach states the real loader never leaves behind.
const config = vi.hoisted(() => ({
  current: { status: 'not_loaded', apiBaseUrl: null } as AppConfigState,
  afterEnsure: { status: 'not_loaded', apiBaseUrl: null } as AppConfigState,
}));

vi.mock('./app-config', async (importOriginal) => ({
  ...(await importOriginal<typeof appConfig>()),
  getAppConfig: () => config.current,
  ensureAppConfig: vi.fn(async () => {
    config.current = config.afterEnsure;
    return config.current;
  }),
}));

const fetchMock = vi.fn(async () => new Response('{}'));

beforeEach(() => {
  vi.mocked(ensureAppConfig).mockClear();
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
});

describe('api without a usable configuration', () => {
  it('loads the configuration once, then fails when it is still not loaded', async () => {
    config.current = { status: 'not_loaded', apiBaseUrl: null };
    config.afterEnsure = { status: 'not_loaded', apiBaseUrl: null };
    const error: unknown = await api.get('api/countries').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'API configuration not loaded. Cannot make API requests.',
      statusText: 'Configuration Error',
      status: undefined,
    });
    expect(ensureAppConfig).toHaveBeenCalledTimes(1);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([null, '', 'not a url', '/api'])(
    'fails when the base URL %j is not valid',
    async (apiBaseUrl) => {
      config.current = { status: 'loaded', apiBaseUrl };
      const error: unknown = await api.post('api/x', {}).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        message: 'No valid API base URL available. Cannot make API requests.',
        statusText: 'Configuration Error',
      });
      expect(ensureAppConfig).not.toHaveBeenCalled();
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it('uses the configuration once ensureAppConfig has loaded it', async () => {
    config.current = { status: 'not_loaded', apiBaseUrl: null };
    config.afterEnsure = { status: 'fallback', apiBaseUrl: 'https://console.example/api' };
    await api.get('api/countries');
    expect(fetchMock).toHaveBeenCalledWith(
      'https://console.example/api/api/countries',
      expect.anything(),
    );
  });
});
