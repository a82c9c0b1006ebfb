import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventItem, EventList } from '@console/contracts';
import { STAFF_USER, TENANT_USER, signInAs } from '@/app/testing/render';
import { jsonResponse, mockApi, renderScreen } from '@/app/testing/screen';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import EventsPage from '.';
import { setUpScreenTests } from '@/test/screen-tests';
import { columnHeaders, type User } from '@/test/queries';

function event(id: number, overrides: Partial<EventItem> = {}): EventItem {
  return {
    id,
    eventName: 'CountryDeleted',
    tenantId: null,
    entityId: null,
    uniqueId: `unique-${id}`,
    createdAt: '2025-06-13T08:30:00.000Z',
    metadata: { actor: 'ada@example.com', action: 'delete' },
    isProcessed: true,
    hasError: false,
    processedEvents: [],
    ...overrides,
  };
}

const processed = event(3, { eventName: 'DocumentTypeCreated', tenantId: 7, entityId: 'ent-1' });
const waiting = event(2, { eventName: 'TestEvent', isProcessed: false });
const failed = event(1, {
  eventName: 'TenantUserCreated',
  tenantId: 4,
  isProcessed: false,
  hasError: true,
  metadata: {
    actor: 'ada@example.com',
    action: 'create',
    email: 'new.user@acme.example',
    companyName: 'Acme Corporation with a rather long name indeed',
  },
  processedEvents: [
    {
      eventId: 1,
      workerName: 'audit-trail',
      hasError: false,
      errorMessage: null,
      processedAt: '2025-06-13T08:30:01.000Z',
      attempts: 1,
    },
    {
      eventId: 1,
      workerName: 'notifications',
      hasError: true,
      errorMessage: 'SMTP connection refused',
      processedAt: null,
      attempts: 3,
    },
  ],
});

function list(
  data: EventItem[],
  totalCount = data.length,
  page = 1,
  pageSize = 10,
  totalIsEstimate = false,
): EventList {
  return { data, totalCount, totalIsEstimate, page, pageSize };
}

function renderPage() {
  return renderScreen(<EventsPage />, { path: '/dashboard/events' });
}

function table() {
  return screen.getByRole('table', { name: 'Events' });
}

/** The query strings of every GET /api/events so far. */
function eventQueries(api: ReturnType<typeof mockApi>): URLSearchParams[] {
  return api.spy.mock.calls
    .map(([input]) => new URL(input instanceof Request ? input.url : String(input)))
    .filter((url) => url.pathname === '/api/events')
    .map((url) => url.searchParams);
}

function lastQuery(api: ReturnType<typeof mockApi>): Record<string, string> {
  const queries = eventQueries(api);
  return Object.fromEntries(queries[queries.length - 1] ?? []);
}

function row(name: RegExp | string) {
  return screen.getByRole('row', { name });
}

function cellTexts(name: RegExp | string): string[] {
  return within(row(name))
    .getAllByRole('cell')
    .map((cell) => cell.textContent ?? '');
}

/** Resets the failed notifications worker of event 1, once its button shows. */
async function clickReset(user: User) {
  await user.click(await screen.findByRole('button', { name: 'Reset notifications of event 1' }));
}

/** Creates a test event once the list has loaded. */
async function clickCreateTestEvent(user: User) {
  await screen.findByRole('cell', { name: 'DocumentTypeCreated' });
  await user.click(screen.getByRole('button', { name: 'Create Test Event' }));
}

setUpScreenTests(STAFF_USER);

describe('events screen', () => {
  it('shows every column, N/A for an empty entity, the date formatted and the metadata on hover', async () => {
    mockApi({ 'GET /api/events': list([processed, waiting, failed]) });
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
    expect(await screen.findByRole('cell', { name: 'DocumentTypeCreated' })).toBeVisible();
    expect(columnHeaders(table())).toEqual([
      'ID',
      'Event Name',
      'Status',
      'Tenant ID',
      'Entity ID',
      'Created At',
      'Metadata',
      'Actions',
    ]);
    const created = new Date('2025-06-13T08:30:00.000Z');
    const pad = (n: number) => String(n).padStart(2, '0');
    const formatted = `${created.getFullYear()}-${pad(created.getMonth() + 1)}-${pad(created.getDate())} ${pad(created.getHours())}:${pad(created.getMinutes())}`;
    const metadata = JSON.stringify(processed.metadata);
    expect(cellTexts(/DocumentTypeCreated/)).toEqual([
      '3',
      'DocumentTypeCreated',
      'Processed',
      '7',
      'ent-1',
      formatted,
      metadata,
      'No actions',
    ]);
    expect(cellTexts(/TestEvent/)[4]).toBe('N/A');
    const metadataText = within(row(/TenantUserCreated/)).getByText(
      JSON.stringify(failed.metadata),
    );
    expect(metadataText).toHaveAttribute('title', JSON.stringify(failed.metadata));
    expect(metadataText).toHaveClass('truncate');
  });

  it('shows the status badge: Error over Processed over Unprocessed', async () => {
    const both = event(4, { eventName: 'EventReset', hasError: true, isProcessed: true });
    mockApi({ 'GET /api/events': list([processed, waiting, failed, both]) });
    renderPage();
    await screen.findByRole('cell', { name: 'DocumentTypeCreated' });
    const badge = (name: RegExp) => within(row(name)).getByText(/^(Error|Processed|Unprocessed)$/);
    expect(badge(/DocumentTypeCreated/)).toHaveTextContent('Processed');
    expect(badge(/DocumentTypeCreated/).className).toMatch(/green/);
    expect(badge(/TestEvent/)).toHaveTextContent('Unprocessed');
    expect(badge(/TestEvent/).className).toMatch(/bg-secondary/);
    expect(badge(/TenantUserCreated/)).toHaveTextContent('Error');
    expect(badge(/TenantUserCreated/).className).toMatch(/bg-destructive/);
    expect(badge(/EventReset/)).toHaveTextContent('Error');
  });

  it('makes a row with a failed worker red, with the error and a Reset per failed worker', async () => {
    mockApi({ 'GET /api/events': list([processed, failed]) });
    renderPage();
    await screen.findByRole('cell', { name: 'TenantUserCreated' });
    expect(row(/TenantUserCreated/)).toHaveClass('bg-red-50');
    expect(row(/DocumentTypeCreated/)).not.toHaveClass('bg-red-50');
    const failures = within(row(/TenantUserCreated/)).getByRole('list', {
      name: 'Failed workers of event 1',
    });
    expect(within(failures).getAllByRole('listitem')).toHaveLength(1);
    expect(failures).toHaveTextContent('notifications: SMTP connection refused');
    expect(failures).not.toHaveTextContent('audit-trail');
    expect(
      within(failures).getByRole('button', { name: 'Reset notifications of event 1' }),
    ).toBeEnabled();
    expect(within(row(/DocumentTypeCreated/)).getByText('No actions')).toBeVisible();
  });

  it("resets the failed worker's record with its workerName, then reloads the list", async () => {
    const user = userEvent.setup();
    const api = mockApi({
      'GET /api/events': list([failed]),
      'POST /api/events/1/reset': { ...failed, hasError: false },
    });
    renderPage();
    await clickReset(user);
    await waitFor(() => expect(api.callsTo('POST', '/api/events/1/reset')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/events/1/reset')[0]?.body).toEqual({
      workerName: 'notifications',
    });
    expect(await screen.findByText('Event 1 reset for notifications')).toBeVisible();
    await waitFor(() => expect(eventQueries(api)).toHaveLength(2));
  });

  it('creates a test event, says so and reloads the list', async () => {
    const user = userEvent.setup();
    const api = mockApi({
      'GET /api/events': list([processed]),
      'POST /api/events/test': jsonResponse({ id: 42 }, 201),
    });
    renderPage();
    await clickCreateTestEvent(user);
    expect(await screen.findByText('Test event 42 created')).toBeVisible();
    expect(api.callsTo('POST', '/api/events/test')).toHaveLength(1);
    await waitFor(() => expect(eventQueries(api)).toHaveLength(2));
  });

  it.each([
    ['a reset', [failed], 'POST /api/events/1/reset', clickReset],
    ['the test event', [processed], 'POST /api/events/test', clickCreateTestEvent],
  ])("says 'HTTP error! status: 500' when %s fails", async (_, events, route, act) => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/events': list(events), [route]: jsonResponse({ message: 'down' }, 500) });
    renderPage();
    await act(user);
    expect(await screen.findByText('HTTP error! status: 500')).toBeVisible();
  });

  it('Refresh loads the list again', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/events': list([waiting]) });
    renderPage();
    await screen.findByRole('cell', { name: 'TestEvent' });
    api.set('GET /api/events', list([{ ...waiting, isProcessed: true }]));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(within(row(/TestEvent/)).getByText('Processed')).toBeVisible());
  });

  it('hides Reset and Create Test Event from tenant users, who still see the errors', async () => {
    signInAs(TENANT_USER);
    mockApi({ 'GET /api/events': list([failed]) });
    renderPage();
    await screen.findByRole('cell', { name: 'TenantUserCreated' });
    expect(within(row(/TenantUserCreated/)).getByText(/SMTP connection refused/)).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Reset/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create Test Event' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeVisible();
  });

  it('shows the API error with Retry, and the empty text', async () => {
    const api = mockApi({ 'GET /api/events': jsonResponse({ message: 'down' }, 500) });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(/API Error: .*\(Status: 500\)/);
    api.set('GET /api/events', list([]));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('cell', { name: 'No events found.' })).toBeVisible();
  });
});

describe('events filters, order and paging', () => {
  it('asks for page 1, 10 events, newest first, no filters', async () => {
    const api = mockApi({ 'GET /api/events': list([processed]) });
    renderPage();
    await screen.findByRole('cell', { name: 'DocumentTypeCreated' });
    expect(lastQuery(api)).toEqual({
      page: '1',
      pageSize: '10',
      sortOrder: 'desc',
      unprocessedOnly: 'false',
      erroredOnly: 'false',
    });
  });

  it('the two checkboxes disable each other and filter', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/events': list([processed]) });
    renderPage();
    await screen.findByRole('cell', { name: 'DocumentTypeCreated' });
    const unprocessed = screen.getByRole('checkbox', { name: 'Unprocessed only' });
    const errored = screen.getByRole('checkbox', { name: 'Errored only' });

    await user.click(unprocessed);
    expect(unprocessed).toBeChecked();
    expect(errored).toBeDisabled();
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ unprocessedOnly: 'true' }));
    expect(lastQuery(api)).toMatchObject({ erroredOnly: 'false' });

    await user.click(unprocessed);
    expect(errored).toBeEnabled();
    await user.click(errored);
    expect(errored).toBeChecked();
    expect(unprocessed).toBeDisabled();
    await waitFor(() =>
      expect(lastQuery(api)).toMatchObject({ unprocessedOnly: 'false', erroredOnly: 'true' }),
    );
  });

  it('filters by event name after typing pauses, from page 1', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/events': list([processed], 30) });
    renderPage();
    await screen.findByRole('cell', { name: 'DocumentTypeCreated' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ page: '2' }));

    await user.type(screen.getByRole('searchbox', { name: 'Event name' }), 'Country');
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ eventName: 'Country', page: '1' }));
    // One request for the whole word, none per keystroke.
    const names = eventQueries(api).map((query) => query.get('eventName'));
    expect(names.filter((name) => name !== null)).toEqual(['Country']);
  });

  it('toggles newest / oldest first from the Created At header, with the arrow', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/events': list([processed]) });
    renderPage();
    await screen.findByRole('cell', { name: 'DocumentTypeCreated' });
    const header = within(table()).getByRole('columnheader', { name: /Created At/ });
    expect(header).toHaveAttribute('aria-sort', 'descending');
    // Only Created At orders the log (the other header buttons are none; the id opens the panel).
    expect(within(table()).getAllByRole('button', { name: /./ })).toHaveLength(2);
    expect(within(table()).getByRole('button', { name: 'Details of event 3' })).toBeVisible();

    await user.click(within(header).getByRole('button', { name: 'Created At' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ sortOrder: 'asc' }));
    expect(header).toHaveAttribute('aria-sort', 'ascending');

    await user.click(within(header).getByRole('button', { name: 'Created At' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ sortOrder: 'desc' }));
    expect(header).toHaveAttribute('aria-sort', 'descending');
  });

  it("pages on the server: 'Page X of Y', 'Showing a to b of n entries', Previous / Next", async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/events': list([processed], 25) });
    renderPage();
    expect(await screen.findByText('Page 1 of 3')).toBeVisible();
    expect(screen.getByText('Showing 1 to 10 of 25 entries')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeVisible();
    expect(screen.getByText('Showing 11 to 20 of 25 entries')).toBeVisible();
    expect(lastQuery(api)).toMatchObject({ page: '2', pageSize: '10' });

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Showing 21 to 25 of 25 entries')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Page 2 of 3')).toBeVisible();
  });

  it('says "about n" in the range when the total is an estimate, as the audit log does', async () => {
    mockApi({ 'GET /api/events': list([processed], 123_456, 1, 10, true) });
    renderPage();
    expect(await screen.findByText('Showing 1 to 10 of about 123456 entries')).toBeVisible();
    expect(screen.getByText('Page 1 of 12346')).toBeVisible();
  });

  it('steps from the rows on screen: Next after the last, Previous before the first', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/events': list([processed, failed], 35) });
    renderPage();
    expect(await screen.findByText('Page 1 of 4')).toBeVisible();
    expect(lastQuery(api)).not.toHaveProperty('after');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ page: '2', after: '1' }));
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ page: '3', after: '1' }));
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(lastQuery(api)).toMatchObject({ page: '2', before: '3' }));
    // Page 1 is the top of the log, by its number.
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(lastQuery(api)).toEqual(expect.objectContaining({ page: '1' })));
    expect(lastQuery(api)).not.toHaveProperty('before');
  });

  it('asks for the page size remembered under eventsPageSize', async () => {
    localStorage.setItem(PAGE_SIZE_KEYS.events, '25');
    const api = mockApi({ 'GET /api/events': list([processed], 60, 1, 25) });
    renderPage();
    expect(await screen.findByText('Page 1 of 3')).toBeVisible();
    expect(lastQuery(api)).toMatchObject({ pageSize: '25' });
    expect(screen.getByText('Showing 1 to 25 of 60 entries')).toBeVisible();
  });

  it("opens an event's panel: its payload pretty-printed and each worker's processing", async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/events': list([processed, failed]) });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Details of event 1' }));
    const panel = await screen.findByRole('dialog', { name: 'Event 1: TenantUserCreated' });
    expect(within(panel).getByRole('region', { name: 'Payload' })).toHaveTextContent(
      '"companyName": "Acme Corporation with a rather long name indeed"',
    );
    const rows = within(within(panel).getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^audit-trailDone1/),
      'notificationsFailedError: SMTP connection refused3N/A',
    ]);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Details of event 1' })).toHaveFocus();
  });
});
