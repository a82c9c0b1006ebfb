import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STAFF_USER } from '@/app/testing/render';
import { mockApi, renderScreen } from '@/app/testing/screen';
import { setUpScreenTests } from '@/test/screen-tests';
import EmailSettingsPage from '.';

setUpScreenTests(STAFF_USER);

describe('email settings placeholder', () => {
  it('shows the fields with their defaults; Save only shows the placeholder alert', async () => {
    const user = userEvent.setup();
    const api = mockApi({});
    renderScreen(<EmailSettingsPage />, { path: '/dashboard/email-settings' });
    expect(screen.getByLabelText('SMTP Host')).toHaveValue('localhost');
    expect(screen.getByLabelText('SMTP Port')).toHaveValue(19025);
    expect(screen.getByLabelText('Username')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('checkbox', { name: 'Use SSL/TLS' })).not.toBeChecked();
    expect(screen.getByLabelText('Default Sender Email')).toHaveValue('no-reply@localhost');
    expect(screen.getByLabelText('Default Sender Name')).toHaveValue(
      'Administration Console (Development)',
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Email settings are a placeholder: nothing was saved.',
    );
    expect(api.calls).toHaveLength(0);
  });
});
