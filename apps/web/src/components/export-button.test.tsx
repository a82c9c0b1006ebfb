import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import type * as download from '@/lib/download';
import { saveFile } from '@/lib/download';
import { STAFF_USER } from '@/app/testing/render';
import { setUpScreenTests } from '@/test/screen-tests';
import { ExportButton, exportRequestPath } from './export-button';

vi.mock('@/lib/download', async (importOriginal) => ({
  ...(await importOriginal<typeof download>()),
  saveFile: vi.fn(),
}));

setUpScreenTests(STAFF_USER);

/** The control's own live status (the toaster has one too). */
const STATUS = 'span[role="status"][aria-live="polite"]';
const FILE_NAME = 'tenants-2026-11-28T1230Z.csv';

function csvAnswer() {
  return new Response('\uFEFFID,Name\r\n1,Acme\r\n', {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${FILE_NAME}"`,
    },
  });
}

beforeEach(() => vi.mocked(saveFile).mockClear());
afterEach(() => vi.restoreAllMocks());

describe('exportRequestPath', () => {
  it('sends the set filters and the format', () => {
    expect(
      exportRequestPath(
        '/api/events/export',
        { sortOrder: 'asc', erroredOnly: true, eventName: '', tenantId: undefined },
        'xlsx',
      ),
    ).toBe('/api/events/export?sortOrder=asc&erroredOnly=true&format=xlsx');
  });
});

describe('ExportButton', () => {
  it('is reached and used by keyboard: menu, format, the file saved under its server name', async () => {
    const api = mockApi({ 'GET /api/tenants/export': () => csvAnswer() });
    const user = userEvent.setup();
    renderScreen(
      <ExportButton path="/api/tenants/export" name="tenants" filters={{ sort: 'x' }} />,
    );
    await user.tab();
    expect(screen.getByRole('button', { name: 'Export' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'CSV' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Excel (.xlsx)' })).toBeInTheDocument();
    // Opened by keyboard, the menu has its first format focused.
    await user.keyboard('{Enter}');

    expect(await screen.findByText(`Exported ${FILE_NAME}`, { selector: STATUS })).toBeVisible();
    const [input] = api.spy.mock.calls[0] ?? [];
    expect(String(input)).toMatch(/\/api\/tenants\/export\?sort=x&format=csv$/);
    const [blob, name] = vi.mocked(saveFile).mock.calls[0] ?? [];
    expect(name).toBe(FILE_NAME);
    // The bytes as they came, BOM included (Blob.text() would drop it as it decodes).
    const bytes = new Uint8Array(await (blob as Blob).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toBe('ID,Name\r\n1,Acme\r\n');
  });

  it('says why an export failed, in the status and a toast', async () => {
    mockApi({ 'GET /api/tenants/export': jsonResponse({ message: 'down' }, 503) });
    const user = userEvent.setup();
    renderScreen(<ExportButton path="/api/tenants/export" name="tenants" />);
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excel (.xlsx)' }));
    const text =
      'Export failed: API Error: API request to api/tenants/export?format=xlsx failed with status 503 (Status: 503)';
    expect(await screen.findByText(text, { selector: STATUS })).toBeVisible();
    expect(saveFile).not.toHaveBeenCalled();
  });
});
