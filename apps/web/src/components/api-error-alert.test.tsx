import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '@/app/testing/dom';
import { ApiError } from '@/lib/api-client';
import { ApiErrorAlert } from './api-error-alert';

describe('ApiErrorAlert', () => {
  it('shows the exact API error text in an alert', () => {
    render(<ApiErrorAlert error={new ApiError('Boom', { status: 503, statusText: 'x' })} />);
    expect(screen.getByRole('alert')).toBeVisible();
    expect(screen.getByText('API Error: Boom (Status: 503)')).toBeVisible();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says N/A when there is no status, and retries on request', async () => {
    const user = userEvent.setup();
    const onRetry = vi.fn();
    render(
      <ApiErrorAlert
        error={new ApiError('No network', { statusText: 'Network Error' })}
        onRetry={onRetry}
      />,
    );
    expect(screen.getByText('API Error: No network (Status: N/A)')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('shows the fallback for an error that is not an API error', () => {
    render(<ApiErrorAlert error={new Error('x')} fallback="Could not load countries" />);
    expect(screen.getByText('Could not load countries')).toBeVisible();
  });

  it("shows the screen's own text when it gives one", () => {
    render(
      <ApiErrorAlert
        error={new ApiError('Boom', { status: 500, statusText: 'x' })}
        text="Failed to fetch forms: 500"
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch forms: 500');
    expect(screen.queryByText(/API Error/)).toBeNull();
  });
});
