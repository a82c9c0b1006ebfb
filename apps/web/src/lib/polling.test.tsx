import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import '@/app/testing/dom';
import { nextPoll, usePollingQuery } from './polling';

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('nextPoll', () => {
  const polling = { intervalMs: 1000, until: (status: string) => status === 'completed' };

  it('waits the interval while the data is not final, and before the first answer', () => {
    expect(nextPoll({ status: 'success', data: 'processing' }, polling)).toBe(1000);
    expect(nextPoll({ status: 'pending', data: undefined }, polling)).toBe(1000);
  });

  it('stops when the data is final or the load failed', () => {
    expect(nextPoll({ status: 'success', data: 'completed' }, polling)).toBe(false);
    expect(nextPoll({ status: 'error', data: 'processing' }, polling)).toBe(false);
  });
});

describe('usePollingQuery', () => {
  it('loads again every interval until the data is final', async () => {
    const answers = ['pending', 'processing', 'completed'];
    const load = vi.fn(async () => answers.shift() ?? 'unexpected');
    const { result } = renderHook(
      () =>
        usePollingQuery({
          queryKey: ['job'],
          queryFn: load,
          polling: { intervalMs: 10, until: (status) => status === 'completed' },
        }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.data).toBe('completed'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('stops after a failed load', async () => {
    const load = vi.fn(async () => {
      throw new Error('down');
    });
    const { result } = renderHook(
      () => usePollingQuery({ queryKey: ['job'], queryFn: load, polling: { intervalMs: 10 } }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.isError).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(load).toHaveBeenCalledTimes(1);
  });
});
