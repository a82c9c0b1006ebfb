import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Entity, EntityPage } from '@console/contracts';
import { TENANT_USER } from '@/app/testing/render';
import { mockApi, renderScreen, type ApiCall } from '@/app/testing/screen';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import EntitiesPage from '.';
import { setUpScreenTests } from '@/test/screen-tests';
import { columnHeaders } from '@/test/queries';
import { CHOICE_ROUTES, groupHtml, htmlResponse } from '@/test/dynamic-forms';

function entity(index: number, entityName?: string): Entity {
  const partyEntityId = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
  return {
    partyEntityId,
    tenantId: 1,
    tenantName: 'Acme Corporation',
    names: { names: entityName === undefined ? {} : { entityName } },
    country: index % 2 ? 'US' : null,
    displayName: entityName ?? partyEntityId,
  };
}

/** 23 entities, answered a page at a time as the server does. */
const ALL = Array.from({ length: 23 }, (_, index) =>
  entity(index + 1, index === 1 ? undefined : `Entity ${index + 1}`),
);

/** The query strings of the list calls, in order. */
function listQueries(spy: ReturnType<typeof mockApi>['spy']): string[] {
  return spy.mock.calls
    .map(([input]) => new URL(String(input)))
    .filter((url) => url.pathname === '/api/Entity')
    .map((url) => url.search);
}

function answerPage(): (call: ApiCall) => EntityPage {
  return () => {
    const url = new URL(String(vi.mocked(fetch).mock.lastCall?.[0]));
    const offset = Number(url.searchParams.get('offset'));
    const limit = Number(url.searchParams.get('limit'));
    const sorted = url.searchParams.get('sort') === '-partyEntityId' ? [...ALL].reverse() : ALL;
    return { data: sorted.slice(offset, offset + limit), totalCount: ALL.length, offset, limit };
  };
}

function renderPage() {
  return renderScreen(<EntitiesPage />, { path: '/dashboard/entities' });
}

const table = () => screen.getByRole('table', { name: 'Entities' });
const bodyRows = () => within(table()).getAllByRole('row').slice(1);

setUpScreenTests(TENANT_USER);

describe('entities screen', () => {
  it('shows ID, tenant, the derived name (the id without a name) and country', async () => {
    mockApi({ 'GET /api/Entity': answerPage() });
    renderPage();
    await screen.findByRole('cell', { name: 'Entity 1' });
    expect(columnHeaders(table())).toEqual(['ID', 'Tenant', 'Name', 'Country', 'Actions']);
    const [first, second] = bodyRows();
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([ALL[0]!.partyEntityId, 'Acme Corporation', 'Entity 1', 'US', 'Profile']);
    const secondCells = within(second!).getAllByRole('cell');
    expect(secondCells[2]).toHaveTextContent(ALL[1]!.partyEntityId);
    expect(secondCells[3]).toHaveTextContent('N/A');
    expect(
      within(secondCells[4]!).getByRole('button', { name: `Profile of ${ALL[1]!.partyEntityId}` }),
    ).toBeVisible();
  });

  it('opens the entity’s profile dialog (form EditEntityProfile) from its Profile button', async () => {
    const user = userEvent.setup();
    const entityId = ALL[0]!.partyEntityId;
    const api = mockApi({
      ...CHOICE_ROUTES,
      'GET /api/Entity': answerPage(),
      [`GET /svc/formusage/entity/${entityId}`]: {
        target: 'Entity',
        tenantId: 1,
        partyEntityId: entityId,
        formName: 'EditEntityProfile',
        formExists: true,
        groups: ['Entity details'],
        metadata: { TradingName: 'Entity One Trading' },
        updatedAt: null,
        updatedBy: null,
      },
      'GET /svc/formusage/Entity%20details/fieldgroup': () =>
        htmlResponse(groupHtml('Entity details', [{ name: 'TradingName', label: 'Trading name' }])),
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Profile of Entity 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Entity profile: Entity 1' });
    expect(await within(dialog).findByRole('textbox', { name: 'Trading name' })).toHaveValue(
      'Entity One Trading',
    );
    const urls = api.spy.mock.calls.map(([input]) => new URL(String(input)));
    const [groupCall] = urls.filter((url) => url.pathname.endsWith('/fieldgroup'));
    expect(groupCall?.searchParams.get('form')).toBe('EditEntityProfile');
    // The tenant profile is staff's: the portal never asks for it.
    expect(urls.filter((url) => url.pathname.startsWith('/svc/formusage/tenant/'))).toEqual([]);
  });

  it('asks the server for the page shown, with the page size, and pages by its total', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/Entity': answerPage() });
    renderPage();
    await screen.findByRole('cell', { name: 'Entity 1' });
    expect(listQueries(api.spy)).toEqual(['?offset=0&limit=10']);
    // The list screens' pager wording (spec part 1, section 2), not the events screen's.
    expect(screen.getByText('page 1 of 3')).toBeVisible();
    expect(screen.queryByText(/^Showing /)).toBeNull();
    expect(bodyRows()).toHaveLength(10);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('cell', { name: 'Entity 11' })).toBeVisible();
    expect(screen.getByText('page 2 of 3')).toBeVisible();
    expect(listQueries(api.spy).at(-1)).toBe('?offset=10&limit=10');

    await user.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    await user.click(await screen.findByRole('option', { name: '25' }));
    expect(await screen.findByRole('cell', { name: 'Entity 23' })).toBeVisible();
    expect(listQueries(api.spy).at(-1)).toBe('?offset=0&limit=25');
    expect(screen.getByText('page 1 of 1')).toBeVisible();
    expect(localStorage.getItem(PAGE_SIZE_KEYS.entities)).toBe('25');
  });

  it('sorts by ID on the server and goes back to page 1', async () => {
    const user = userEvent.setup();
    const api = mockApi({ 'GET /api/Entity': answerPage() });
    renderPage();
    await screen.findByRole('cell', { name: 'Entity 1' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('cell', { name: 'Entity 11' });
    const idHeader = within(table()).getByRole('columnheader', { name: /ID/ });
    await user.click(within(idHeader).getByRole('button'));
    await user.click(within(idHeader).getByRole('button'));
    expect(await screen.findByRole('cell', { name: 'Entity 23' })).toBeVisible();
    expect(listQueries(api.spy).at(-1)).toBe('?offset=0&limit=10&sort=-partyEntityId');
    expect(idHeader).toHaveAttribute('aria-sort', 'descending');
  });

  it('uses the remembered page size', async () => {
    localStorage.setItem(PAGE_SIZE_KEYS.entities, '50');
    const api = mockApi({ 'GET /api/Entity': answerPage() });
    renderPage();
    await screen.findByRole('cell', { name: 'Entity 23' });
    expect(listQueries(api.spy)).toEqual(['?offset=0&limit=50']);
  });
});
