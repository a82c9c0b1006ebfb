import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiPath, apiRoute } from './api.ts';

describe('apiPath', () => {
  it('answers a path without placeholders as it is', () => {
    expect(apiPath(apiRoute('GET', '/api/countries'))).toBe('/api/countries');
  });

  it('fills in every placeholder, URL-encoded', () => {
    const route = apiRoute('DELETE', '/api/EntityUser/:userId/keys/:keyName');
    expect(apiPath(route, { userId: 'u/1', keyName: 'a b' })).toBe(
      '/api/EntityUser/u%2F1/keys/a%20b',
    );
    expect(apiPath(apiRoute('PUT', '/api/tenants/:id'), { id: 7 })).toBe('/api/tenants/7');
  });

  it('keeps each value one path segment that decodes back to it', () => {
    const route = apiRoute('POST', '/api/events/:id/reset');
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (id) => {
        const segments = apiPath(route, { id }).split('/');
        expect(segments).toHaveLength(5);
        expect(decodeURIComponent(segments[3] ?? '')).toBe(id);
      }),
    );
  });

  it('refuses a call that leaves a placeholder without a value', () => {
    const route = apiRoute('DELETE', '/api/tenants/:id');
    // The types already require it; this is what a caller that casts gets.
    expect(() => apiPath(route, {} as { id: number })).toThrow('No value for :id');
  });
});
