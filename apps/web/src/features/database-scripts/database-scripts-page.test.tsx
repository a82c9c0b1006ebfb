import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DatabaseScriptList, Page, ScriptExecution } from '@console/contracts';
import { STAFF_USER } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import { setUpScreenTests } from '@/test/screen-tests';
import { columnHeaders } from '@/test/queries';
import DatabaseScriptsPage from '.';

const SCRIPTS: DatabaseScriptList = {
  scripts: [
    {
      id: 1,
      name: 'Purge expired sessions',
      description: 'Deletes expired sessions',
      type: 'Maintenance',
      version: 1,
      content: 'delete from sessions where expires_at < now();',
    },
    {
      id: 3,
      name: 'Entities per tenant',
      description: 'Counts entities',
      type: 'Report',
      version: 2,
      content: 'select 1;',
    },
  ],
  isUserAuthorizedForScripts: true,
};
const EXECUTION: ScriptExecution = {
  id: 7,
  scriptId: 3,
  scriptName: 'Entities per tenant',
  scriptVersion: 2,
  status: 'Success',
  executedBy: 'admin@example.com',
  executedAt: '2026-03-01T10:15:00.000Z',
  finishedAt: '2026-03-01T10:15:01.000Z',
  message: 'Returned 2 row(s)',
};
const page = (data: ScriptExecution[]): Page<ScriptExecution> => ({
  data,
  totalCount: data.length,
  offset: 0,
  limit: 10,
});

setUpScreenTests(STAFF_USER);

/** A script's row in the Scripts table, by its name cell. */
const scriptRow = (name: string) => {
  const row = within(screen.getByRole('table', { name: 'Scripts' }))
    .getByRole('cell', { name })
    .closest('tr');
  if (!row) throw new Error(`No row of ${name}`);
  return row;
};

const renderPage = () =>
  renderScreen(<DatabaseScriptsPage />, { path: '/dashboard/database-scripts' });

describe('database scripts screen', () => {
  it('lists the scripts and the recent executions', async () => {
    const api = mockApi({
      'GET /api/database-scripts': SCRIPTS,
      'GET /api/database-scripts/history': page([EXECUTION]),
    });
    renderPage();
    expect(await screen.findByRole('cell', { name: 'Purge expired sessions' })).toBeVisible();
    expect(columnHeaders(screen.getByRole('table', { name: 'Scripts' }))).toEqual([
      'Name',
      'Description',
      'Type',
      'Version',
    ]);
    const executions = screen.getByRole('table', { name: 'Recent Executions' });
    expect(columnHeaders(executions)).toEqual([
      'Script',
      'Status',
      'Executed By',
      'Executed At',
      'Message',
    ]);
    expect(await within(executions).findByText('admin@example.com')).toBeVisible();
    expect(within(executions).getByText('2026-03-01 10:15')).toBeVisible();
    expect(api.calls.find((call) => call.path.endsWith('/history'))).toBeDefined();
  });

  it('selects a script by clicking its row, shows and hides its SQL', async () => {
    mockApi({
      'GET /api/database-scripts': SCRIPTS,
      'GET /api/database-scripts/history': page([]),
    });
    const user = userEvent.setup();
    renderPage();
    expect(
      await screen.findByText(
        'Select a script to view or execute it: click its row, or press Enter on it.',
      ),
    ).toBeVisible();
    await user.click(await screen.findByRole('cell', { name: 'Deletes expired sessions' }));
    expect(scriptRow('Purge expired sessions')).toHaveAttribute('aria-selected', 'true');
    expect(scriptRow('Entities per tenant')).toHaveAttribute('aria-selected', 'false');
    await user.click(screen.getByRole('button', { name: 'View Script' }));
    expect(screen.getByText('delete from sessions where expires_at < now();')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Hide Script' }));
    expect(screen.queryByText('delete from sessions where expires_at < now();')).toBeNull();
    expect(screen.getByText('No scripts executed yet.')).toBeVisible();
  });

  it('selects a script by keyboard: Enter or Space on the focused row', async () => {
    mockApi({
      'GET /api/database-scripts': SCRIPTS,
      'GET /api/database-scripts/history': page([]),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('cell', { name: 'Purge expired sessions' });
    // The sortable headers come first in the tab order, then the rows.
    while (document.activeElement !== scriptRow('Purge expired sessions')) await user.tab();
    await user.keyboard(' ');
    expect(scriptRow('Purge expired sessions')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('group', { name: 'Purge expired sessions' })).toBeVisible();
    await user.tab();
    expect(document.activeElement).toBe(scriptRow('Entities per tenant'));
    await user.keyboard('{Enter}');
    expect(scriptRow('Entities per tenant')).toHaveAttribute('aria-selected', 'true');
    expect(scriptRow('Purge expired sessions')).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByRole('group', { name: 'Entities per tenant' })).toBeVisible();
  });

  it('executes after a confirmation naming the script, then reloads the history', async () => {
    const api = mockApi({
      'GET /api/database-scripts': SCRIPTS,
      'GET /api/database-scripts/history': page([]),
      'POST /api/database-scripts/execute/3': () => {
        api.set('GET /api/database-scripts/history', page([EXECUTION]));
        return { success: true, message: 'ok', errorDetails: null, executionId: 7 };
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('cell', { name: 'Entities per tenant' }));
    await user.click(screen.getByRole('button', { name: 'Execute Script' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Execute script?' });
    expect(dialog).toHaveTextContent('This runs "Entities per tenant" (version 2)');
    await user.click(within(dialog).getByRole('button', { name: 'Execute' }));
    expect(
      await screen.findAllByText('Script "Entities per tenant" executed successfully'),
    ).not.toHaveLength(0);
    const executions = screen.getByRole('table', { name: 'Recent Executions' });
    expect(await within(executions).findByText('Returned 2 row(s)')).toBeVisible();
    expect(api.callsTo('POST', '/api/database-scripts/execute/3')).toHaveLength(1);
    expect(api.callsTo('POST', '/api/database-scripts/execute/3')[0]?.body).toBeUndefined();
  });

  it('shows why a script failed and the toast Script execution failed', async () => {
    mockApi({
      'GET /api/database-scripts': SCRIPTS,
      'GET /api/database-scripts/history': page([]),
      'POST /api/database-scripts/execute/1': {
        success: false,
        message: 'Script execution failed',
        errorDetails: 'division by zero',
        executionId: 8,
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('cell', { name: 'Purge expired sessions' }));
    await user.click(screen.getByRole('button', { name: 'Execute Script' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Execute' }),
    );
    expect(await screen.findByText('division by zero')).toBeVisible();
    expect(await screen.findByText('Script execution failed')).toBeVisible();
  });

  it('offers no Execute Script without authorization, and says so', async () => {
    mockApi({
      'GET /api/database-scripts': { ...SCRIPTS, isUserAuthorizedForScripts: false },
      'GET /api/database-scripts/history': page([]),
    });
    const user = userEvent.setup();
    renderPage();
    expect(
      await screen.findByText('Script execution is restricted to authorized administrators only.'),
    ).toBeVisible();
    await user.click(await screen.findByRole('cell', { name: 'Purge expired sessions' }));
    expect(screen.getByRole('button', { name: 'View Script' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Execute Script' })).toBeNull();
  });

  it('says Failed to fetch database scripts with the status code', async () => {
    mockApi({
      'GET /api/database-scripts': jsonResponse({ message: 'boom' }, 500),
      'GET /api/database-scripts/history': page([]),
    });
    renderPage();
    expect(await screen.findByText('Failed to fetch database scripts: 500')).toBeVisible();
  });
});
