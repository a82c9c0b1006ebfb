/**
 * Rendering one screen (or one part of it) with what the dashboard shell provides — TanStack
 * Query, a router, tooltips, the toaster — against a stand-in of the server's API.
 */
import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, vi } from 'vitest';
import { toast } from 'sonner';
import { Toaster } from '@/components/ui/sonner';
import { TooltipProvider } from '@/components/ui/tooltip';
import { loadAppConfig } from '@/lib/app-config';
import './dom';

// sonner keeps its toasts in a module-wide store and shows the active ones to every new Toaster:
// a test must not see the toasts of the test before.
afterEach(() => {
  toast.dismiss();
});

/** The API base URL the tests' configuration gives. */
export const TEST_API_BASE = 'https://console.example';

/** Loads the app configuration as at startup, so screens stop waiting for it. */
export async function loadTestConfig(): Promise<void> {
  await loadAppConfig({
    fetch: async () => new Response(JSON.stringify({ apiBaseUrl: TEST_API_BASE })),
  });
}

function LocationProbe() {
  const { pathname } = useLocation();
  return <output data-testid="location">{pathname}</output>;
}

/** Renders `ui` inside the shell's providers; `screen.getByTestId('location')` shows the path. */
export function renderScreen(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <TooltipProvider>
          {ui}
          <LocationProbe />
        </TooltipProvider>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

export interface ApiCall {
  method: string;
  /** The URL's path, e.g. '/api/countries/4'. */
  path: string;
  /** The parsed JSON body, if any. */
  body: unknown;
}

/** An answer: a Response, or a value sent as JSON with status 200. */
export type ApiAnswer = Response | unknown;
export type ApiRoute = ApiAnswer | ((call: ApiCall) => ApiAnswer | Promise<ApiAnswer>);

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/**
 * Answers the app's calls from `routes`, keyed 'METHOD /path' ('GET /api/countries'); routes can
 * be replaced later with `set`. A call without a route answers 404. `calls` lists every call.
 */
export function mockApi(routes: Record<string, ApiRoute>) {
  const table = new Map(Object.entries(routes));
  const calls: ApiCall[] = [];
  // A Response given as a route answers every call: its body is read once and replayed (cloning
  // a Response with a body is slow here).
  const recorded = new Map<Response, Promise<string>>();
  const replay = async (response: Response) => {
    let body = recorded.get(response);
    if (!body) recorded.set(response, (body = response.text()));
    const text = await body;
    return new Response(text === '' ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? 'GET';
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const call: ApiCall = {
      method,
      path: url.pathname,
      body: text === undefined ? undefined : (JSON.parse(text) as unknown),
    };
    calls.push(call);
    const route = table.get(`${method} ${url.pathname}`);
    if (route === undefined)
      return jsonResponse({ message: `No route ${method} ${url.pathname}` }, 404);
    const answer =
      typeof route === 'function' ? await (route as (call: ApiCall) => unknown)(call) : route;
    if (answer instanceof Response) return answer === route ? replay(answer) : answer;
    return jsonResponse(answer);
  });
  return {
    calls,
    spy,
    set: (key: string, route: ApiRoute) => table.set(key, route),
    /** The calls made with a method and path. */
    callsTo: (method: string, path: string) =>
      calls.filter((call) => call.method === method && call.path === path),
  };
}
