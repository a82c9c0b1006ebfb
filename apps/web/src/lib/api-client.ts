/**
 * The one API client (spec part 1, sections 7 and 8). Every call goes to the configured API base
 * URL, carries the Bearer token when signed in, and fails with an `ApiError` whose message is the
 * spec's text. A 401 or 403 while signed in signs out and returns to '/'.
 */
import { ensureAppConfig, getAppConfig, isValidAbsoluteUrl } from './app-config';
import { clearTokens, getAuthSession } from './auth-session';
import { fileNameFromDisposition } from './download';

export interface ApiErrorInit {
  status?: number;
  statusText: string;
  data?: unknown;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly status: number | undefined;
  readonly statusText: string;
  /** The parsed JSON error body, or null when there is none or it is not JSON. */
  readonly data: unknown;

  constructor(message: string, init: ApiErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.statusText = init.statusText;
    this.data = init.data ?? null;
  }
}

export const CONFIG_NOT_LOADED_MESSAGE = 'API configuration not loaded. Cannot make API requests.';
export const NO_VALID_BASE_URL_MESSAGE =
  'No valid API base URL available. Cannot make API requests.';
export const UNEXPECTED_ERROR_TEXT = 'An unexpected error occurred';

export interface RequestOptions {
  /**
   * Keep the global sign-out redirect on 401/403 off for this call (spec 7); a 403 then also
   * keeps the session, for the caller shows its own access-denied message.
   */
  skipAuthRedirect?: boolean;
  signal?: AbortSignal;
}

export interface DownloadOptions extends RequestOptions {
  /** Hears the bytes received so far, as they arrive. */
  onProgress?: (bytesReceived: number) => void;
}

/** A file the API answered, with the name its Content-Disposition gives (null without one). */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

/** A POST or PUT body: sent as JSON, or as multipart form data when it is a FormData. */
export type RequestBody = FormData | object | string | number | boolean | null;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiClientDeps {
  /** Where a 401/403 sends the browser; `window.location.assign` by default. */
  redirect: (path: string) => void;
}

/**
 * The verbs of spec 7. GET, POST and PUT resolve to the parsed JSON answer, or to undefined for a
 * 204, a 200 with content-length 0, or an empty body (type T accordingly when a call may answer
 * nothing). DELETE resolves to nothing.
 */
export interface ApiClient {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  /** GET for a text answer, e.g. the HTML of a form's field group (spec part 2). */
  getText(path: string, options?: RequestOptions): Promise<string>;
  /** GET for a file, e.g. the FATF ratings spreadsheet (spec part 2). */
  getBlob(path: string, options?: RequestOptions): Promise<Blob>;
  /**
   * GET for a file that takes a while (a list's export): read as it streams in, telling
   * `onProgress` how many bytes came so far.
   */
  download(path: string, options?: DownloadOptions): Promise<DownloadedFile>;
  post<T = void>(path: string, body?: RequestBody, options?: RequestOptions): Promise<T>;
  put<T = void>(path: string, body?: RequestBody, options?: RequestOptions): Promise<T>;
  delete(path: string, options?: RequestOptions): Promise<void>;
}

/** What each kind of call accepts (a refusal comes as JSON whatever the call). */
const ACCEPT = {
  json: 'application/json',
  none: 'application/json',
  text: 'text/html, text/plain, */*',
  blob: '*/*',
  response: '*/*',
} as const;

type Answer = keyof typeof ACCEPT;

export function createApiClient(overrides?: Partial<ApiClientDeps>): ApiClient {
  const deps: ApiClientDeps = {
    redirect: (path) => window.location.assign(path),
    ...overrides,
  };

  async function request(
    method: Method,
    pathAsGiven: string,
    body: RequestBody | undefined,
    options: RequestOptions | undefined,
    answer: Answer,
  ): Promise<unknown> {
    // Paths are relative to the API base; messages name them as the spec does ('api/countries'),
    // whether the caller wrote them so or as the contracts' '/api/countries'.
    const path = pathAsGiven.replace(/^\/+/, '');
    try {
      const url = `${await baseUrl()}/${path}`;
      const headers: Record<string, string> = {
        Accept: ACCEPT[answer],
      };
      const { accessToken } = getAuthSession();
      if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
      let payload: BodyInit | undefined;
      if (body instanceof FormData) {
        payload = body; // the browser sets the multipart Content-Type with its boundary
      } else if (body !== undefined) {
        headers['Content-Type'] = 'application/json';
        payload = JSON.stringify(body);
      }

      let response: Response;
      try {
        response = await fetch(url, { method, headers, body: payload, signal: options?.signal });
      } catch (cause) {
        if (isAbort(cause, options?.signal)) throw cause;
        throw new ApiError(`Network error while fetching ${path}: ${reasonOf(cause)}`, {
          statusText: 'Network Error',
          cause,
        });
      }

      if (!response.ok) {
        const data = await readJsonOrNull(response);
        if (
          (response.status === 401 || response.status === 403) &&
          getAuthSession().isAuthenticated
        ) {
          // A caller that turned the redirect off handles the refusal itself: a 403 then says
          // "not allowed" (a staff member deleting a country sees the access-denied message and
          // stays signed in); a 401 (the token is no longer valid) still signs out.
          if (response.status === 401 || !options?.skipAuthRedirect) clearTokens();
          if (!options?.skipAuthRedirect) deps.redirect('/');
        }
        throw new ApiError(`API request to ${path} failed with status ${response.status}`, {
          status: response.status,
          statusText: response.statusText,
          data,
        });
      }

      if (answer === 'none') return undefined;
      if (answer === 'blob') return response.blob();
      if (answer === 'response') return response;
      if (response.status === 204 || response.headers.get('content-length') === '0') {
        return answer === 'text' ? '' : undefined;
      }
      const text = await response.text();
      if (answer === 'text') return text;
      return text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch (error) {
      if (error instanceof ApiError || isAbort(error, options?.signal)) throw error;
      throw new ApiError(`Error in ${method} request to ${path}: ${reasonOf(error)}`, {
        statusText: 'Request Error',
        cause: error,
      });
    }
  }

  return {
    get: <T>(path: string, options?: RequestOptions) =>
      request('GET', path, undefined, options, 'json') as Promise<T>,
    getText: (path, options) => request('GET', path, undefined, options, 'text') as Promise<string>,
    getBlob: (path, options) => request('GET', path, undefined, options, 'blob') as Promise<Blob>,
    download: async (path, options) => {
      const response = (await request('GET', path, undefined, options, 'response')) as Response;
      try {
        return {
          blob: await readBody(response, options?.onProgress),
          fileName: fileNameFromDisposition(response.headers.get('content-disposition')),
        };
      } catch (error) {
        // The answer began and then broke off (the connection dropped, the server failed).
        if (isAbort(error, options?.signal)) throw error;
        throw new ApiError(
          `Error in GET request to ${path.replace(/^\/+/, '')}: ${reasonOf(error)}`,
          {
            statusText: 'Request Error',
            cause: error,
          },
        );
      }
    },
    post: <T>(path: string, body?: RequestBody, options?: RequestOptions) =>
      request('POST', path, body, options, 'json') as Promise<T>,
    put: <T>(path: string, body?: RequestBody, options?: RequestOptions) =>
      request('PUT', path, body, options, 'json') as Promise<T>,
    delete: async (path, options) => {
      await request('DELETE', path, undefined, options, 'none');
    },
  };
}

/** The body of `response` as a Blob, read chunk by chunk so that `onProgress` can follow it. */
async function readBody(
  response: Response,
  onProgress: ((bytesReceived: number) => void) | undefined,
): Promise<Blob> {
  const type = response.headers.get('content-type') ?? '';
  if (!response.body) return response.blob();
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress?.(received);
  }
  return new Blob(chunks, { type });
}

/** The app's API client. */
export const api = createApiClient();

/**
 * The configured base URL without a trailing slash, loading the configuration once if needed.
 */
async function baseUrl(): Promise<string> {
  let config = getAppConfig();
  if (config.status === 'not_loaded') config = await ensureAppConfig();
  if (config.status === 'not_loaded') {
    throw new ApiError(CONFIG_NOT_LOADED_MESSAGE, { statusText: 'Configuration Error' });
  }
  if (!isValidAbsoluteUrl(config.apiBaseUrl)) {
    throw new ApiError(NO_VALID_BASE_URL_MESSAGE, { statusText: 'Configuration Error' });
  }
  return config.apiBaseUrl.trim().replace(/\/+$/, '');
}

async function readJsonOrNull(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** A cancelled call is not a failure: its abort error is passed through unwrapped. */
function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return (
    signal?.aborted === true ||
    (typeof error === 'object' && error !== null && (error as Error).name === 'AbortError')
  );
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The text a list screen shows when loading fails (spec 8, "Screens"):
 * 'API Error: {message} (Status: {status or N/A})', or the fallback for anything else.
 */
export function apiErrorText(error: unknown, fallback = UNEXPECTED_ERROR_TEXT): string {
  if (error instanceof ApiError) {
    return `API Error: ${error.message} (Status: ${error.status ?? 'N/A'})`;
  }
  return fallback;
}

/**
 * The words of a failed call for a message such as 'Import failed: {message}': the `message` of
 * the server's JSON error body when it has one, otherwise the error's own message.
 */
export function apiErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return serverMessage(error) ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The `message` of the server's JSON error body, when the failure is an answer that has one. */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const { data } = error;
  if (typeof data === 'object' && data !== null && 'message' in data) {
    const { message } = data as { message: unknown };
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return undefined;
}

/** GET a path and check the answer against the contract's schema, e.g. a list or a page. */
export async function getParsed<T>(
  schema: { parse: (data: unknown) => T },
  path: string,
  signal?: AbortSignal,
): Promise<T> {
  return schema.parse(await api.get<unknown>(path, { signal }));
}

/**
 * A call that must carry the bearer token was about to go without one (spec part 2, sections 5
 * and 8: the forms and form fields calls check the session first). Screens word it themselves
 * ('Authentication token not found.').
 */
export class AccessTokenMissingError extends Error {
  constructor() {
    super('Authentication token not found.');
    this.name = 'AccessTokenMissingError';
  }
}

/** Throws `AccessTokenMissingError` unless the session holds an access token. */
export function requireAccessToken(): void {
  if (!getAuthSession().accessToken) throw new AccessTokenMissingError();
}
