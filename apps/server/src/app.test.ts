import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as contracts from '@console/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

// The server's own surface: SPA with history fallback, health, configuration, headers, OpenAPI.

let testApp: TestApp;

beforeAll(async () => {
  // A stand-in build of the SPA, so this suite does not depend on `vite build` having run.
  const webDist = await mkdtemp(path.join(tmpdir(), 'console-web-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>',
  );
  await writeFile(
    path.join(webDist, 'assets', 'app.js'),
    `console.log(${JSON.stringify('x'.repeat(4096))});`,
  );
  testApp = await createTestApp({ webDistDir: webDist });
});

afterAll(async () => {
  await testApp?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  testApp.app.inject({ method: 'GET', url, headers });

/** Every call the contracts declare (`countriesApi.list`, `sessionApi.status`, ...). */
function contractRoutes(): { name: string; route: contracts.ApiRoute }[] {
  return Object.entries(contracts)
    .filter(([name]) => name.endsWith('Api'))
    .flatMap(([name, calls]) =>
      Object.entries(calls as Record<string, contracts.ApiRoute>).map(([call, route]) => ({
        name: `${name}.${call}`,
        route,
      })),
    );
}

describe('the API paths of the contracts', () => {
  it('are each served by a route of the same method and path', () => {
    const routes = contractRoutes();
    expect(routes.length).toBeGreaterThan(20);
    const missing = routes.filter(
      ({ route }) => !testApp.app.hasRoute({ method: route.method, url: route.path }),
    );
    expect(missing.map(({ name }) => name)).toEqual([]);
  });
});

describe('the server', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await get('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await get('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('answers /readyz with 503 when the database is gone', async () => {
    const isolated = await createTestApp();
    await isolated.database.close();
    const response = await isolated.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable' });
    await isolated.app.close();
  });

  it('gives the app its API base URL from PUBLIC_URL', async () => {
    const response = await get('/app-config');
    expect(response.json()).toEqual({ apiBaseUrl: testApp.config.publicUrl });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('serves the SPA for any client-side route, and assets with long caching', async () => {
    for (const route of ['/', '/login', '/dashboard/countries', '/dashboard/email-templates/new']) {
      const response = await get(route, { accept: 'text/html' });
      expect(response.statusCode, route).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    const asset = await get('/assets/app.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers unknown API routes with JSON 404s, not the SPA', async () => {
    const token = await testApp.tokenFor('staff@example.com');
    const response = await get('/api/no-such-thing', {
      accept: 'text/html',
      authorization: `Bearer ${token}`,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Route GET /api/no-such-thing not found' });
  });

  it('sends a strict Content-Security-Policy and other security headers', async () => {
    const response = await get('/login', { accept: 'text/html' });
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeDefined();
  });

  it('sends the same security headers on API answers and on the sign-in provider own answers', async () => {
    const token = await testApp.tokenFor('staff@example.com');
    const page = await get('/login', { accept: 'text/html' });
    const api = await get('/api/countries', { authorization: `Bearer ${token}` });
    // oidc-provider writes this answer itself, on the raw response.
    const provider = await get('/oidc/.well-known/openid-configuration');
    expect([api.statusCode, provider.statusCode]).toEqual([200, 200]);
    const security = (headers: Record<string, unknown>) =>
      Object.fromEntries(
        [
          'content-security-policy',
          'cross-origin-opener-policy',
          'cross-origin-resource-policy',
          'origin-agent-cluster',
          'referrer-policy',
          'strict-transport-security',
          'x-content-type-options',
          'x-dns-prefetch-control',
          'x-download-options',
          'x-frame-options',
          'x-permitted-cross-domain-policies',
          'x-xss-protection',
        ].map((name) => [name, headers[name]]),
      );
    expect(Object.values(security(page.headers)).every((value) => typeof value === 'string')).toBe(
      true,
    );
    expect(security(api.headers)).toEqual(security(page.headers));
    expect(security(provider.headers)).toEqual(security(page.headers));
    expect(page.headers['x-powered-by']).toBeUndefined();
  });

  it('compresses responses the client accepts compressed', async () => {
    const response = await get('/assets/app.js', { 'accept-encoding': 'gzip' });
    expect(response.headers['content-encoding']).toBe('gzip');
  });

  it('tags each response with a request id, keeping one the caller sent', async () => {
    const generated = await get('/healthz');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await get('/healthz', { 'x-request-id': 'trace-123' });
    expect(given.headers['x-request-id']).toBe('trace-123');
  });

  it('publishes an OpenAPI document of the API at /docs/api', async () => {
    const ui = await get('/docs/api/', { accept: 'text/html' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
    const document = (await get('/docs/api/json')).json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/countries', '/api/documenttypes', '/auth/session']),
    );
  });

  it('refuses malformed JSON with a clear 400', async () => {
    const token = await testApp.tokenFor('staff@example.com');
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/documenttypes',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"id": "passport",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/JSON/i);
  });
});
