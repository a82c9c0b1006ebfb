import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type {
  EmailTemplate,
  EmailTemplatePreviewRequest,
  EmailTemplateVersion,
} from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { mockApi, renderScreen, type ApiCall } from '@/app/testing/screen';
import { setUpScreenTests } from '@/test/screen-tests';
import EmailTemplateEditPage from './email-template-edit-page';
import { PREVIEW_DEBOUNCE_MS } from './preview-panel';

const version = (id: number, versionNumber: number, subject: string): EmailTemplateVersion => ({
  id,
  emailTemplateId: 5,
  versionNumber,
  fromAddress: 'no-reply@console.example',
  subject,
  body: `<p>Body of ${subject}</p>`,
  textContent: subject,
  jsonSchema: null,
  createdAt: '2026-01-01T10:00:00Z',
  updatedAt: '2026-01-01T10:00:00Z',
});

/** Version 2 is active; version 1 is a saved draft. */
const TEMPLATE: EmailTemplate = {
  id: 5,
  templateKey: 'welcome',
  tenantId: null,
  partyEntityId: null,
  productType: 0,
  productScope: 0,
  activeVersionId: 12,
  createdAt: '2026-01-01T10:00:00Z',
  updatedAt: '2026-01-01T10:00:00Z',
  versions: [version(11, 1, 'First'), version(12, 2, 'Second')],
};

/** The server's preview, standing in: the subject and body as sent. */
const preview = ({ body }: ApiCall) => {
  const request = body as EmailTemplatePreviewRequest;
  return { subject: request.subject, html: request.body, text: '', sampleData: {} };
};

setUpScreenTests(STAFF_USER);

const renderEditor = () =>
  renderScreen(
    <Routes>
      <Route path="/dashboard/email-templates/:id" element={<EmailTemplateEditPage />} />
    </Routes>,
    { path: '/dashboard/email-templates/5' },
  );

describe('email template editor', () => {
  it('shows the preview when it opens, and again shortly after an edit', async () => {
    const api = mockApi({
      'GET /api/emailtemplates/5': TEMPLATE,
      'POST /api/emailtemplates/preview': preview,
    });
    const user = userEvent.setup();
    renderEditor();
    expect(await screen.findByText('Subject: Second')).toBeVisible();
    expect(screen.getByTitle('Email preview')).toHaveAttribute(
      'srcdoc',
      expect.stringContaining('<p>Body of Second</p>'),
    );
    expect(api.callsTo('POST', '/api/emailtemplates/preview')).toHaveLength(1);

    await user.type(screen.getByLabelText('Subject'), ' edited');
    // One render once typing pauses, not one per keystroke.
    expect(
      await screen.findByText('Subject: Second edited', {}, { timeout: PREVIEW_DEBOUNCE_MS * 4 }),
    ).toBeVisible();
    expect(api.callsTo('POST', '/api/emailtemplates/preview')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Refresh preview' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/emailtemplates/preview')).toHaveLength(3));
  });

  it('sends the selected saved version, not the active one', async () => {
    const api = mockApi({
      'GET /api/emailtemplates/5': TEMPLATE,
      'POST /api/emailtemplates/preview': preview,
      'POST /api/emailtemplates/testsend': {
        message: 'Test email of welcome version 1 sent to qa@console.example',
        versionNumber: 1,
      },
    });
    const user = userEvent.setup();
    renderEditor();
    await user.click(await screen.findByRole('button', { name: /v1/ }));
    await user.click(screen.getByRole('button', { name: 'Send test email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send test email' });
    expect(dialog).toHaveTextContent('Sends version 1 of welcome, rendered with sample data.');
    await user.type(within(dialog).getByLabelText('Recipient'), 'qa@console.example');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Test email sent')).toBeVisible();
    expect(api.callsTo('POST', '/api/emailtemplates/testsend')[0]?.body).toEqual({
      ToAddress: 'qa@console.example',
      TemplateKey: 'welcome',
      VersionId: 11,
    });
  });
});
