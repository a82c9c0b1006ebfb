import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import '@/app/testing/dom';
import { loadAppConfig, resetAppConfig } from '@/lib/app-config';
import { WaitingForConfiguration } from './waiting-for-configuration';

afterEach(() => {
  // Unmount first: a mounted component would start a new load once the state is reset.
  cleanup();
  vi.restoreAllMocks();
  resetAppConfig();
});

describe('WaitingForConfiguration', () => {
  it('shows the waiting message until the configuration is loaded, then the screen', async () => {
    let answer: (response: Response) => void = () => {};
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    render(
      <WaitingForConfiguration>
        <p>Countries table</p>
      </WaitingForConfiguration>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for configuration...');
    expect(screen.queryByText('Countries table')).toBeNull();
    // Not loaded yet: the component asks for the configuration itself.
    expect(fetch).toHaveBeenCalledWith('/app-config', expect.anything());

    await act(async () => {
      answer(new Response(JSON.stringify({ apiBaseUrl: 'https://console.example/api' })));
    });
    expect(await screen.findByText('Countries table')).toBeVisible();
    expect(screen.queryByText('Waiting for configuration...')).toBeNull();
  });

  it('shows the screen at once when the configuration is already there', async () => {
    await loadAppConfig({
      fetch: async () =>
        new Response(JSON.stringify({ apiBaseUrl: 'https://console.example/api' })),
    });
    render(
      <WaitingForConfiguration>
        <p>Countries table</p>
      </WaitingForConfiguration>,
    );
    expect(screen.getByText('Countries table')).toBeVisible();
  });
});
