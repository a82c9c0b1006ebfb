import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import {
  AccessTokenMissingError,
  ApiError,
  apiErrorMessage,
  apiErrorText,
  createApiClient,
  requireAccessToken,
  serverMessage,
} from './api-client';
import { loadAppConfig, resetAppConfig } from './app-config';
import { clearTokens, getAuthSession, setTokens } from './auth-session';
import { AUTH_TOKENS_KEY } from './storage-keys';

const BASE = 'https://console.example/base/';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

let handler: Handler;
let fetchMock: Mock<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>;
let redirect: Mock<(path: string) => void>;
let client: ReturnType<typeof createApiClient>;

function json(body: unknown, status = 200, statusText = ''): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A response the Fetch API cannot build (a 204 with a body), for the client's branches. */
function fakeResponse(status: number, headers: Headers, body: string): Response {
  return { ok: true, status, statusText: '', headers, text: async () => body } as Response;
}

/** The one request made to the API (the config call excluded). */
function apiCall(index = 0): { url: string; init: RequestInit; headers: Headers } {
  const calls = fetchMock.mock.calls.filter((call) => call[0] !== '/app-config');
  const [url, init] = calls[index] as [string, RequestInit];
  return { url, init, headers: new Headers(init.headers) };
}

/** Awaits a rejection and returns the error. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeEach(() => {
  localStorage.clear();
  clearTokens();
  resetAppConfig();
  handler = () => json({});
  fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === '/app-config') return json({ apiBaseUrl: BASE });
    return handler(url, init ?? {});
  });
  vi.stubGlobal('fetch', fetchMock);
  redirect = vi.fn<(path: string) => void>();
  client = createApiClient({ redirect });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('configuration', () => {
  it('loads the configuration once before the first call', async () => {
    handler = () => json([{ id: 1 }]);
    await expect(client.get('api/countries')).resolves.toEqual([{ id: 1 }]);
    await client.get('api/countries');
    expect(fetchMock.mock.calls.map((call) => call[0])).toEqual([
      '/app-config',
      'https://console.example/base/api/countries',
      'https://console.example/base/api/countries',
    ]);
  });

  it("joins the base without its trailing slash and the path, adding a leading '/'", async () => {
    await loadAppConfig({ fetch: async () => json({ apiBaseUrl: 'https://api.example.com//' }) });
    await client.get('api/tenants');
    await client.get('/api/tenants');
    expect(apiCall(0).url).toBe('https://api.example.com/api/tenants');
    expect(apiCall(1).url).toBe('https://api.example.com/api/tenants');
  });
});

describe('headers and bodies', () => {
  it('sends the Bearer token only when signed in', async () => {
    await client.get('api/countries');
    expect(apiCall(0).headers.has('Authorization')).toBe(false);

    setTokens({ accessToken: 'token-1', userEmail: 'ada@example.com' });
    await client.get('api/countries');
    expect(apiCall(1).headers.get('Authorization')).toBe('Bearer token-1');

    clearTokens();
    await client.delete('api/countries/1');
    expect(apiCall(2).headers.has('Authorization')).toBe(false);
  });

  it.each(['post', 'put'] as const)('%s sends a JSON body with its Content-Type', async (verb) => {
    handler = () => json({ id: 'passport' }, 201);
    const result = await client[verb]('api/documenttypes', { displayName: 'Passport' });
    expect(result).toEqual({ id: 'passport' });
    const { init, headers } = apiCall();
    expect(init.method).toBe(verb.toUpperCase());
    expect(init.body).toBe('{"displayName":"Passport"}');
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it.each(['post', 'put'] as const)(
    '%s sends FormData as multipart, without a Content-Type',
    async (verb) => {
      const form = new FormData();
      form.append('Target', 'tenant');
      await client[verb]('svc/formusage/submit', form);
      const { init, headers } = apiCall();
      expect(init.body).toBe(form);
      expect(headers.has('Content-Type')).toBe(false);
    },
  );

  it('sends no body and no Content-Type when there is none', async () => {
    await client.post('api/events/test');
    const { init, headers } = apiCall();
    expect(init.body).toBeUndefined();
    expect(headers.has('Content-Type')).toBe(false);
  });

  it('passes the abort signal on, and a cancelled call fails with the abort itself', async () => {
    const controller = new AbortController();
    handler = (_url, init) =>
      new Promise((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    const call = client.get('api/countries', { signal: controller.signal });
    await vi.waitFor(() => expect(apiCall().init.signal).toBe(controller.signal));
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    await expect(call).rejects.not.toBeInstanceOf(ApiError);
  });
});

describe('answers', () => {
  it.each([
    // The status or the header alone decides: a body is not read (so 'not json' cannot fail).
    ['a 204', () => fakeResponse(204, new Headers(), 'not json')],
    [
      'a 200 with content-length 0',
      () => new Response('not json', { headers: { 'content-length': '0' } }),
    ],
    ['a 200 with an empty body', () => new Response('', { status: 200 })],
  ])('gives nothing for %s', async (_label, answer) => {
    handler = answer;
    await expect(client.get('api/x')).resolves.toBeUndefined();
    await expect(client.post('api/x', { a: 1 })).resolves.toBeUndefined();
    await expect(client.put('api/x', { a: 1 })).resolves.toBeUndefined();
  });

  it('DELETE gives nothing, whatever the body', async () => {
    handler = () => json({ deleted: true });
    await expect(client.delete('api/countries/3')).resolves.toBeUndefined();
    handler = () => new Response('Deleted', { headers: { 'Content-Type': 'text/plain' } });
    await expect(client.delete('api/countries/4')).resolves.toBeUndefined();
    expect(apiCall(1).init.method).toBe('DELETE');
  });

  it('getText gives the body as text', async () => {
    handler = () => new Response('<form></form>', { headers: { 'Content-Type': 'text/html' } });
    await expect(client.getText('svc/formusage/x/fieldgroup')).resolves.toBe('<form></form>');
  });

  it('getBlob gives the body as a file', async () => {
    const bytes = new Uint8Array([0x50, 0x4b, 3, 4]);
    handler = () =>
      new Response(bytes, { headers: { 'Content-Type': 'application/vnd.ms-excel' } });
    const blob = await client.getBlob('api/fatf/export');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);
    expect(blob.type).toBe('application/vnd.ms-excel');
    expect(apiCall(0).init.headers).toMatchObject({ Accept: '*/*' });
  });

  it('download reads a streamed file chunk by chunk, telling the bytes so far, with its name', async () => {
    const chunks = [new Uint8Array([0xef, 0xbb, 0xbf, 0x41]), new Uint8Array([0x2c, 0x42])];
    handler = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }),
        {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': 'attachment; filename="tenants-2026-11-28T1230Z.csv"',
          },
        },
      );
    const progress: number[] = [];
    const file = await client.download('api/tenants/export?format=csv', {
      onProgress: (bytes) => progress.push(bytes),
    });
    expect(progress).toEqual([4, 6]);
    expect(file.fileName).toBe('tenants-2026-11-28T1230Z.csv');
    expect([...new Uint8Array(await file.blob.arrayBuffer())]).toEqual([
      0xef, 0xbb, 0xbf, 0x41, 0x2c, 0x42,
    ]);
    expect(file.blob.type).toBe('text/csv; charset=utf-8');
  });

  it('download reports a file cut short as a request error', async () => {
    handler = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new Uint8Array([0x41]));
            controller.error(new TypeError('network error'));
          },
        }),
      );
    const error = await failure(client.download('api/events/export'));
    expect(error.message).toBe('Error in GET request to api/events/export: network error');
    expect(error.statusText).toBe('Request Error');
  });
});

describe('errors', () => {
  it('reports a network failure', async () => {
    handler = () => {
      throw new TypeError('Failed to fetch');
    };
    const error = await failure(client.get('api/countries'));
    expect(error.message).toBe('Network error while fetching api/countries: Failed to fetch');
    expect(error.statusText).toBe('Network Error');
    expect(error.status).toBeUndefined();
    expect(error.data).toBeNull();
  });

  it('reports a non-OK answer with its status, status text and JSON body', async () => {
    handler = () => json({ message: 'In use' }, 409, 'Conflict');
    const error = await failure(client.delete('api/countries/4'));
    expect(error.message).toBe('API request to api/countries/4 failed with status 409');
    expect(error).toMatchObject({
      status: 409,
      statusText: 'Conflict',
      data: { message: 'In use' },
    });
    expect(error.name).toBe('ApiError');
  });

  it('carries null as the body of a non-JSON error answer', async () => {
    handler = () =>
      new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' });
    const error = await failure(client.get('api/tenants'));
    expect(error).toMatchObject({ status: 502, statusText: 'Bad Gateway', data: null });
  });

  it.each([401, 403])('%i while signed in signs out and returns to /', async (status) => {
    setTokens({ accessToken: 'token-1', userEmail: 'ada@example.com' });
    handler = () => json({ message: 'no' }, status);
    const error = await failure(client.get('api/countries'));
    expect(error.status).toBe(status);
    expect(getAuthSession().isAuthenticated).toBe(false);
    expect(localStorage.getItem(AUTH_TOKENS_KEY)).toBeNull();
    expect(redirect).toHaveBeenCalledExactlyOnceWith('/');
  });

  it('skipAuthRedirect: a 401 signs out without the redirect', async () => {
    setTokens({ accessToken: 'token-1', userEmail: 'ada@example.com' });
    handler = () => json({}, 401);
    await failure(client.delete('api/countries/1', { skipAuthRedirect: true }));
    expect(getAuthSession().isAuthenticated).toBe(false);
    expect(redirect).not.toHaveBeenCalled();
  });

  it('skipAuthRedirect: a 403 keeps the session, the caller shows its own message', async () => {
    setTokens({ accessToken: 'token-1', userEmail: 'ada@example.com' });
    handler = () => json({ message: 'Forbidden' }, 403);
    const error = await failure(client.delete('api/countries/1', { skipAuthRedirect: true }));
    expect(error.status).toBe(403);
    expect(getAuthSession().isAuthenticated).toBe(true);
    expect(localStorage.getItem(AUTH_TOKENS_KEY)).not.toBeNull();
    expect(redirect).not.toHaveBeenCalled();
  });

  it('does not redirect on 401 when not signed in, nor on other errors', async () => {
    handler = () => json({}, 401);
    await failure(client.get('api/countries'));
    setTokens({ accessToken: 'token-1', userEmail: 'ada@example.com' });
    handler = () => json({}, 404);
    await failure(client.get('api/countries'));
    expect(getAuthSession().isAuthenticated).toBe(true);
    expect(redirect).not.toHaveBeenCalled();
  });

  it('wraps other failures with the verb and the path', async () => {
    handler = () => new Response('{not json', { status: 200 });
    const error = await failure(client.get('api/countries'));
    expect(error.message).toMatch(/^Error in GET request to api\/countries: .+/);
    expect(error.status).toBeUndefined();
    expect(error.cause).toBeInstanceOf(SyntaxError);

    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect((await failure(client.post('api/x', circular))).message).toMatch(
      /^Error in POST request to api\/x: /,
    );
    expect((await failure(client.put('api/x', circular))).message).toMatch(
      /^Error in PUT request to api\/x: /,
    );

    handler = () => {
      throw 'not an Error';
    };
    // A thrown non-Error still counts as a network failure of fetch.
    expect((await failure(client.delete('api/x'))).message).toBe(
      'Network error while fetching api/x: not an Error',
    );
  });

  it('does not wrap an ApiError twice', async () => {
    handler = () => json({}, 500, 'Internal Server Error');
    const error = await failure(client.post('api/x', {}));
    expect(error.message).toBe('API request to api/x failed with status 500');
  });
});

describe('apiErrorText', () => {
  it('shows the message and the status of an ApiError', () => {
    const error = new ApiError('API request to api/countries failed with status 500', {
      status: 500,
      statusText: 'Internal Server Error',
    });
    expect(apiErrorText(error)).toBe(
      'API Error: API request to api/countries failed with status 500 (Status: 500)',
    );
  });

  it('shows N/A without a status', () => {
    const error = new ApiError('Network error while fetching api/x: down', {
      statusText: 'Network Error',
    });
    expect(apiErrorText(error)).toBe(
      'API Error: Network error while fetching api/x: down (Status: N/A)',
    );
  });

  it('falls back for anything else', () => {
    expect(apiErrorText(new Error('x'))).toBe('An unexpected error occurred');
    expect(apiErrorText('x', 'Failed to load countries')).toBe('Failed to load countries');
  });
});

describe('apiErrorMessage', () => {
  const failed = (data: unknown) =>
    new ApiError('API request to api/countries/import failed with status 400', {
      status: 400,
      statusText: 'Bad Request',
      data,
    });

  it("is the message of the server's JSON error body", () => {
    expect(apiErrorMessage(failed({ message: 'Record at index 3: name must not be empty' }))).toBe(
      'Record at index 3: name must not be empty',
    );
  });

  it("is the error's own message without a usable body message", () => {
    for (const data of [null, 'text', { message: '' }, { message: 42 }, { error: 'x' }]) {
      expect(apiErrorMessage(failed(data))).toBe(
        'API request to api/countries/import failed with status 400',
      );
    }
    expect(apiErrorMessage(new Error('boom'))).toBe('boom');
    expect(apiErrorMessage('odd')).toBe('odd');
  });
});

describe('serverMessage', () => {
  it("is the server's message, and nothing without one", () => {
    const failed = (data: unknown) => new ApiError('failed', { status: 409, statusText: '', data });
    expect(serverMessage(failed({ message: 'Storage name FirstName is taken' }))).toBe(
      'Storage name FirstName is taken',
    );
    expect(serverMessage(failed({ message: ' ' }))).toBeUndefined();
    expect(serverMessage(failed(null))).toBeUndefined();
    expect(serverMessage(new Error('boom'))).toBeUndefined();
  });
});

describe('requireAccessToken', () => {
  it('throws AccessTokenMissingError when signed out, nothing when signed in', () => {
    expect(() => requireAccessToken()).toThrow(AccessTokenMissingError);
    setTokens({ accessToken: 'token', userEmail: null });
    expect(() => requireAccessToken()).not.toThrow();
  });
});
