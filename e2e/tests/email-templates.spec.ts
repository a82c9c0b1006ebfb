import { expect, test, type Page } from '@playwright/test';
import {
  describeSignedInAs,
  expectNoSeriousAccessibilityViolations,
  staffMember,
  toast,
} from './helpers.ts';
import { eventsApiAs } from './events-helpers.ts';
import { goToListScreen } from './reference-data-helpers.ts';

/**
 * Email templates (spec part 2, "Email templates list" and "Email template editor"): a template
 * made from a real-world shaped transactional mail, a second version marked active and saved,
 * its preview (a script in the body does not run) and test emails found in the SMTP catcher: the
 * active version's, then version 1's once it is selected.
 */

/** A transactional mail as marketing tools write them: nested tables, inline styles, a loop. */
const RECEIPT_HTML = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>.btn{background:#0b5cff;color:#fff}</style></head>
<body style="margin:0;background:#f4f5f7">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
  <table role="presentation" width="600" style="background:#ffffff;border-radius:6px">
    <tr><td style="padding:24px"><h1 style="font-size:20px">Hello {{customer.name}},</h1>
      <p>Your verification <strong>{{caseId}}</strong> was reviewed on {{reviewedOn}}.</p>
      <table width="100%">{{#each checks}}<tr><td>{{this.label}}</td><td>{{this.status}}</td></tr>{{/each}}</table>
      <p><a class="btn" href="{{link}}">View your case</a></p>
      <script>document.title = 'script ran'; alert('script ran');</script>
    </td></tr>
    <tr><td style="padding:12px;font-size:12px;color:#6b7280">{{company}} &middot; You receive this because you started a verification.</td></tr>
  </table>
</td></tr></table></body></html>`;

const SCHEMA = JSON.stringify({
  type: 'object',
  properties: {
    customer: { type: 'object', properties: { name: { type: 'string', examples: ['Jane Doe'] } } },
    caseId: { type: 'string', examples: ['KYC-2041'] },
    reviewedOn: { type: 'string', format: 'date' },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          label: { type: 'string', examples: ['Passport'] },
          status: { enum: ['passed'] },
        },
      },
    },
    link: { type: 'string', format: 'uri' },
    company: { type: 'string', examples: ['Acme Corporation'] },
  },
});

/** Version 2's body: version 1's with another link text, so a mail tells which one it is. */
const V2_HTML = RECEIPT_HTML.replace('View your case', 'Open the review');

async function fillVersion(page: Page, subject: string) {
  await page.getByLabel('From Address').fill('Compliance <no-reply@console.example>');
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Body (HTML)').fill(RECEIPT_HTML);
  await page.getByLabel('Text content').fill('');
  await page.getByLabel('JSON Schema').fill(SCHEMA);
}

describeSignedInAs('email templates', staffMember, () => {
  test('creates a template with two versions, previews it safely and sends a test email', async ({
    page,
  }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const key = `kyc-review-${Date.now()}`;
    await goToListScreen(page, '/dashboard/email-templates', 'Email Templates');
    await page.getByRole('button', { name: 'Create new' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New Email Template' })).toBeVisible();

    await page.getByLabel('Template Key').fill(key);
    await page.getByLabel('Product Type').selectOption({ label: 'AML' });
    await fillVersion(page, 'Your case {{caseId}} was reviewed');
    await page.getByRole('button', { name: 'New version' }).click();
    await expect(toast(page, 'New version created')).toBeVisible();
    await page.getByLabel('Subject').fill('Case {{caseId}}: review complete');
    await page.getByLabel('Body (HTML)').fill(V2_HTML);
    await page.getByRole('button', { name: 'Mark active' }).click();
    await expect(toast(page, 'version marked to be active (save to apply)')).toBeVisible();
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    await expect(toast(page, 'Template saved')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/email-templates$/);
    const row = page.getByRole('row').filter({ hasText: key });
    await expect(row).toContainText('instance level');
    await expect(row).toContainText('AML');
    await expect(row.getByRole('cell').nth(6)).toHaveText('2');

    await row.getByRole('button', { name: `Edit ${key}` }).click();
    await expect(page.getByLabel('Template Key')).toHaveAttribute('readonly', '');
    await expect(page.getByRole('button', { name: /v2/ })).toContainText('Active');
    await expect(page.getByRole('button', { name: /v1/ })).toContainText('Draft');

    // The preview renders itself when the editor opens: no click.
    await expect(page.getByText('Subject: Case KYC-2041: review complete')).toBeVisible();
    const frame = page.getByTitle('Email preview');
    await expect(frame).toHaveAttribute('sandbox', '');
    const preview = frame.contentFrame();
    await expect(preview.getByRole('heading', { name: 'Hello Jane Doe,' })).toBeVisible();
    // axe cannot enter a frame whose sandbox forbids scripts: the page around it is checked.
    await expectNoSeriousAccessibilityViolations(page, { exclude: 'iframe[sandbox]' });
    await expect(preview.getByRole('cell', { name: 'Passport' }).first()).toBeVisible();
    expect(await preview.locator('script').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await expect(page).not.toHaveTitle('script ran');

    // An edit shows in the preview shortly after typing pauses, and Refresh preview still works.
    await page.getByLabel('Subject').fill('Case {{caseId}}: edited');
    await expect(page.getByText('Subject: Case KYC-2041: edited')).toBeVisible();
    await page.getByRole('button', { name: 'Refresh preview' }).click();
    await expect(page.getByText('Subject: Case KYC-2041: edited')).toBeVisible();
    await page.getByLabel('Subject').fill('Case {{caseId}}: review complete');
    await expect(page.getByText('Subject: Case KYC-2041: review complete')).toBeVisible();

    const recipient = `qa+${Date.now()}@console.example`;
    await page.getByRole('button', { name: 'Send test email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send test email' });
    await dialog.getByLabel('Recipient').fill('not an address');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByText('Please enter a valid email address')).toBeVisible();
    await dialog.getByLabel('Recipient').fill(recipient);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(toast(page, 'Test email sent')).toBeVisible();

    const api = await eventsApiAs(page);
    await expect
      .poll(async () => (await api.mailTo(recipient)).map((mail) => mail.subject))
      .toEqual(['Case KYC-2041: review complete']);
    const [mail] = await api.mailTo(recipient);
    expect(mail!.text).toContain('Hello Jane Doe,');
    expect(mail!.html).toContain('Open the review');

    // The test sends the version on screen, not the active one.
    await page.getByRole('button', { name: /v1/ }).click();
    await page.getByRole('button', { name: 'Send test email' }).click();
    await expect(dialog).toContainText(`Sends version 1 of ${key}`);
    const secondRecipient = `qa1+${Date.now()}@console.example`;
    await dialog.getByLabel('Recipient').fill(secondRecipient);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(toast(page, 'Test email sent').first()).toBeVisible();
    await expect
      .poll(async () => (await api.mailTo(secondRecipient)).map((sent) => sent.subject))
      .toEqual(['Your case KYC-2041 was reviewed']);
    const [versionOne] = await api.mailTo(secondRecipient);
    expect(versionOne!.html).toContain('View your case');
    expect(versionOne!.html).not.toContain('Open the review');
    expect(versionOne!.text).toContain('View your case');
  });

  test('email settings is a placeholder: Save makes no call', async ({ page }) => {
    await page.goto('/dashboard/email-settings');
    await expect(page.getByLabel('SMTP Port')).toHaveValue('19025');
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/')) calls.push(request.url());
    });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toContainText('placeholder');
    expect(calls).toEqual([]);
    await expectNoSeriousAccessibilityViolations(page);
  });
});
