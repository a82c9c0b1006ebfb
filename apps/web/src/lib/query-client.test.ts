import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient, shouldRetryQuery } from './query-client';

const apiError = (status?: number) => new ApiError('failed', { status, statusText: 'x' });

describe('shouldRetryQuery', () => {
  it.each([400, 401, 403, 404, 409, 499])('never retries a %i', (status) => {
    expect(shouldRetryQuery(0, apiError(status))).toBe(false);
  });

  it.each([
    ['a 500', apiError(500)],
    ['a network error', apiError(undefined)],
    ['any other error', new Error('x')],
  ])('retries %s once', (_label, error) => {
    expect(shouldRetryQuery(0, error)).toBe(true);
    expect(shouldRetryQuery(1, error)).toBe(false);
  });
});

describe('createQueryClient', () => {
  it('uses the console defaults', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries?.retry).toBe(shouldRetryQuery);
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(mutations?.retry).toBe(false);
  });

  it('does not ask again after a 404', async () => {
    const client = createQueryClient();
    let calls = 0;
    const observer = client.getQueryCache().build(client, {
      queryKey: ['missing'],
      queryFn: async () => {
        calls += 1;
        throw apiError(404);
      },
    });
    await observer.fetch().catch(() => undefined);
    expect(calls).toBe(1);
  });
});
