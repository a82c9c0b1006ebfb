import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntry, AuditList } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { mockApi, renderScreen } from '@/app/testing/screen';
import type * as download from '@/lib/download';
import { setUpScreenTests } from '@/test/screen-tests';
import { columnHeaders } from '@/test/queries';
import AuditLogPage from '.';

function entry(id: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id,
    eventId: 100 + id,
    eventName: 'DocumentTypeUpdated',
    occurredAt: '2025-06-13T08:30:00.000Z',
    actor: 'ada@example.com',
    action: 'update',
    targetType: 'DocumentType',
    targetId: 'passport',
    targetName: 'Passport',
    tenantId: null,
    tenantName: null,
    entityId: null,
    before: { displayName: 'Passport', apiReferences: { onfido: 'old-ref', jumio: 'same' } },
    after: { displayName: 'Passport', apiReferences: { onfido: 'new-ref', jumio: 'same' } },
    metadata: { actor: 'ada@example.com', action: 'update' },
    ...overrides,
  };
}

const list = (
  data: AuditEntry[],
  totalCount = data.length,
  totalIsEstimate = false,
): AuditList => ({
  data,
  totalCount,
  totalIsEstimate,
  page: 1,
  pageSize: 10,
});

function auditQueries(api: ReturnType<typeof mockApi>): Record<string, string>[] {
  return api.spy.mock.calls
    .map(([input]) => new URL(input instanceof Request ? input.url : String(input)))
    .filter((url) => url.pathname === '/api/audit')
    .map((url) => Object.fromEntries(url.searchParams));
}

vi.mock('@/lib/download', async (importOriginal) => ({
  ...(await importOriginal<typeof download>()),
  saveFile: vi.fn(),
}));

setUpScreenTests(STAFF_USER);

describe('audit log screen', () => {
  it('shows the columns and asks for the filters of its URL', async () => {
    const api = mockApi({
      'GET /api/audit': list([
        entry(1),
        entry(2, {
          targetType: 'Tenant',
          targetId: '7',
          targetName: 'Acme',
          tenantId: 7,
          tenantName: 'Acme',
        }),
      ]),
    });
    renderScreen(<AuditLogPage />, {
      path: '/dashboard/audit-log?actor=ada%40example.com&targetType=Tenant&ignored=1',
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Audit Log' });
    expect(columnHeaders(table)).toEqual(['Time', 'Actor', 'Action', 'What', 'Tenant', 'Changes']);
    expect(await screen.findByRole('cell', { name: 'Tenant · 7 · Acme' })).toBeVisible();
    expect(auditQueries(api)[0]).toEqual({
      actor: 'ada@example.com',
      targetType: 'Tenant',
      page: '1',
      pageSize: '10',
    });
    expect(screen.getByLabelText('Actor')).toHaveValue('ada@example.com');
  });

  it('applies the filters into the URL and the call, and clears them', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/audit': list([entry(1)]) });
    renderScreen(<AuditLogPage />, { path: '/dashboard/audit-log' });
    await screen.findByRole('cell', { name: /Passport/ });
    await user.type(screen.getByLabelText('Target ID'), 'passport');
    await user.type(screen.getByLabelText('Target name'), 'Pass{Enter}');
    await screen.findByDisplayValue('Pass');
    expect(auditQueries(api).at(-1)).toMatchObject({ targetId: 'passport', q: 'Pass', page: '1' });
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(auditQueries(api).at(-1)).toEqual({ page: '1', pageSize: '10' });
    expect(screen.getByLabelText('Target ID')).toHaveValue('');
  });

  it('steps from the rows on screen: Next after the last, Previous before the first', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/audit': list([entry(5), entry(4)], 30) });
    renderScreen(<AuditLogPage />, { path: '/dashboard/audit-log?action=update' });
    await screen.findByText('Page 1 of 3');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    expect(auditQueries(api).at(-1)).toEqual({
      action: 'update',
      page: '2',
      pageSize: '10',
      after: '4',
    });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 3 of 3');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('Page 2 of 3');
    expect(auditQueries(api).at(-1)).toMatchObject({ page: '2', before: '5' });
  });

  it('says "about N" when the total is an estimate', async () => {
    mockApi({ 'GET /api/audit': list([entry(1)], 123456, true) });
    renderScreen(<AuditLogPage />, { path: '/dashboard/audit-log' });
    expect(await screen.findByText('Showing 1 to 10 of about 123456 entries')).toBeVisible();
  });

  it('opens the difference: changed fields by default, all with the switch, text never HTML', async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /api/audit': list([
        entry(1, {
          after: {
            displayName: 'Passport',
            apiReferences: { onfido: '<img src=x onerror=alert(1)>', jumio: 'same' },
          },
        }),
      ]),
    });
    renderScreen(<AuditLogPage />, { path: '/dashboard/audit-log' });
    await user.click(await screen.findByRole('button', { name: 'Show changes of entry 1' }));
    const panel = await screen.findByRole('dialog', { name: 'update DocumentType Passport' });
    const changes = within(panel).getByRole('table');
    expect(
      within(changes)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['apiReferences.onfidoold-ref<img src=x onerror=alert(1)>']);
    expect(panel.querySelector('img')).toBeNull();
    await user.click(within(panel).getByRole('checkbox', { name: 'Show unchanged fields' }));
    expect(within(changes).getAllByRole('row')).toHaveLength(4);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('wraps long values in the difference instead of widening the panel', async () => {
    // jsdom lays nothing out: the classes that make the browser wrap are what can be checked
    // here (e2e/tests/audit-log.spec.ts measures a real panel).
    const long = `https://verify.example/${'x'.repeat(2000)}`;
    const field = `reference${'y'.repeat(200)}`;
    const user = userEvent.setup();
    mockApi({
      'GET /api/audit': list([
        entry(1, { before: { [field]: 'short' }, after: { [field]: long } }),
      ]),
    });
    renderScreen(<AuditLogPage />, { path: '/dashboard/audit-log' });
    await user.click(await screen.findByRole('button', { name: 'Show changes of entry 1' }));
    const panel = await screen.findByRole('dialog', { name: 'update DocumentType Passport' });
    const changes = within(panel).getByRole('table');
    // Fixed columns: a long value cannot make its column, or the panel, wider.
    expect(changes).toHaveClass('table-fixed', 'w-full');
    const value = within(changes).getByText(long);
    expect(value).toHaveClass('break-words', 'whitespace-pre-wrap');
    expect(within(changes).getByRole('rowheader', { name: field })).toHaveClass('break-words');
    // The whole value is there, not cut.
    expect(value.textContent).toHaveLength(long.length);
    // The event's own record, pretty-printed, wraps too.
    const details = within(panel).getByRole('region', { name: 'Details' });
    expect(within(details).getByText(/"actor"/)).toHaveClass('break-words', 'whitespace-pre-wrap');
  });

  it('exports the whole log under the filters of its URL, not the form being edited', async () => {
    const api = mockApi({
      'GET /api/audit': list([entry(1)]),
      'GET /api/audit/export': () =>
        new Response('\uFEFFID\r\n1\r\n', {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': 'attachment; filename="audit-log-2026-11-28T1230Z.csv"',
          },
        }),
    });
    const user = userEvent.setup();
    renderScreen(<AuditLogPage />, {
      path: '/dashboard/audit-log?actor=ada%40example.com&from=2025-01-01',
    });
    await screen.findByRole('table', { name: 'Audit Log' });
    // A filter typed but not applied is not the list on screen.
    await user.type(screen.getByLabelText('Target ID'), 'draft');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(await screen.findByRole('menuitem', { name: 'CSV' }));
    await screen.findByText('Exported audit-log-2026-11-28T1230Z.csv', {
      selector: 'span[role="status"]',
    });
    const exported = api.spy.mock.calls
      .map(([input]) => new URL(input instanceof Request ? input.url : String(input)))
      .find((url) => url.pathname === '/api/audit/export');
    expect(Object.fromEntries(exported?.searchParams ?? [])).toEqual({
      actor: 'ada@example.com',
      from: '2025-01-01',
      format: 'csv',
    });
  });
});
