import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EmailTemplateListItem } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { mockApi, renderScreen } from '@/app/testing/screen';
import { setUpScreenTests } from '@/test/screen-tests';
import { columnHeaders, confirmDelete } from '@/test/queries';
import EmailTemplatesPage from '.';

const row = (
  id: number,
  templateKey: string,
  more: Partial<EmailTemplateListItem> = {},
): EmailTemplateListItem => ({
  id,
  templateKey,
  tenantId: null,
  partyEntityId: null,
  productType: 0,
  productScope: 0,
  activeVersionId: null,
  activeVersionNumber: null,
  createdAt: '2026-01-01T10:00:00Z',
  updatedAt: '2026-01-02T10:00:00Z',
  ...more,
});

const TEMPLATES = [
  row(1, 'welcome', {
    tenantId: 4,
    partyEntityId: 'ent-1',
    productType: 2,
    productScope: 2,
    activeVersionId: 9,
    activeVersionNumber: 3,
  }),
  row(2, 'alert', { productType: 7, productScope: 1, activeVersionId: 12 }),
  row(3, 'invitation'),
];

setUpScreenTests(STAFF_USER);

describe('email templates list', () => {
  it('shows the columns with their empty texts and names, sorted by key', async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/emailtemplates': TEMPLATES });
    renderScreen(<EmailTemplatesPage />, { path: '/dashboard/email-templates' });
    await screen.findByRole('cell', { name: 'welcome' });
    const table = screen.getByRole('table', { name: 'Email Templates' });
    expect(columnHeaders(table)).toEqual([
      'Template Key',
      'Tenant',
      'Entity',
      'Product Type',
      'Product Scope',
      'Updated',
      'Active Version',
      'Actions',
    ]);
    const rows = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((tr) =>
          within(tr)
            .getAllByRole('cell')
            .slice(0, 7)
            .map((cell) => cell.textContent),
        );
    expect(rows()).toEqual([
      ['alert', 'instance level', 'no entity', 'Unknown (7)', 'Tenant', expect.any(String), '12'],
      [
        'invitation',
        'instance level',
        'no entity',
        'All',
        'Default',
        expect.any(String),
        'no active version',
      ],
      ['welcome', '4', 'ent-1', 'AML', 'Entity', expect.any(String), '3'],
    ]);
    // The active column again: descending.
    await user.click(within(table).getByRole('button', { name: /Template Key/ }));
    expect(rows()[0]![0]).toBe('welcome');
    expect(screen.getByRole('button', { name: 'Create new' })).toBeEnabled();
  });

  it('says so when there is no template', async () => {
    mockApi({ 'GET /api/emailtemplates': [] });
    renderScreen(<EmailTemplatesPage />, { path: '/dashboard/email-templates' });
    expect(await screen.findByText('No email templates found.')).toBeVisible();
  });

  it('deletes a template after confirmation', async () => {
    const user = userEvent.setup();
    const api = mockApi({
      'GET /api/emailtemplates': TEMPLATES,
      'DELETE /api/emailtemplates/3': new Response(null, { status: 204 }),
    });
    renderScreen(<EmailTemplatesPage />, { path: '/dashboard/email-templates' });
    await screen.findByRole('cell', { name: 'invitation' });
    await confirmDelete(user, 'invitation', 'Delete email template?');
    await waitFor(() => expect(api.callsTo('DELETE', '/api/emailtemplates/3')).toHaveLength(1));
    expect(await screen.findByText('Template deleted')).toBeVisible();
  });
});
