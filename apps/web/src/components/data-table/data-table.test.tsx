import { createRef, type RefObject } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ColumnDef } from '@tanstack/react-table';
import '@/app/testing/dom';
import { ApiError } from '@/lib/api-client';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import { DataTable, type DataTableHandle, type DataTableProps } from './data-table';

interface Country {
  id: number;
  name: string;
}

const columns: ColumnDef<Country>[] = [
  { accessorKey: 'id', header: 'ID' },
  { accessorKey: 'name', header: 'Country name' },
  { id: 'actions', header: 'Actions', cell: () => <button type="button">Delete</button> },
];

/** Countries 1..n named "Country 001".. in reverse alphabetical order of id. */
function countries(n: number): Country[] {
  return Array.from({ length: n }, (_, index) => ({
    id: index + 1,
    name: `Country ${String(n - index).padStart(3, '0')}`,
  }));
}

const KEY = PAGE_SIZE_KEYS.countries;

/** The table of 23 countries, with `props` over the defaults; for render and rerender. */
function tableElement(
  ref: RefObject<DataTableHandle | null>,
  props: Partial<DataTableProps<Country>> = {},
) {
  return (
    <DataTable<Country>
      ref={ref}
      columns={columns}
      data={countries(23)}
      label="Countries"
      emptyText="No countries found."
      pageSizeKey={KEY}
      {...(props as object)}
    />
  );
}

function renderTable(props: Partial<DataTableProps<Country>> = {}) {
  const ref = createRef<DataTableHandle>();
  const result = render(tableElement(ref, props));
  return { ...result, ref };
}

/** The first cell of each body row. */
function firstColumn(label = 'Countries'): string[] {
  const table = screen.getByRole('table', { name: label });
  const [, ...bodyRows] = within(table).getAllByRole('row');
  return bodyRows.map((row) => within(row).getAllByRole('cell')[0]!.textContent ?? '');
}

async function choosePageSize(user: ReturnType<typeof userEvent.setup>, size: string) {
  await user.click(screen.getByRole('combobox', { name: 'Rows per page' }));
  await user.click(await screen.findByRole('option', { name: size }));
}

beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

describe('DataTable paging', () => {
  it('shows the first 10 rows and page 1 of 3 with Previous disabled', () => {
    renderTable();
    expect(firstColumn()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(screen.getByText('page 1 of 3')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it('pages with Next and Previous; Next is disabled on the last page', async () => {
    const user = userEvent.setup();
    renderTable();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('page 2 of 3')).toBeVisible();
    expect(firstColumn()[0]).toBe('11');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('page 3 of 3')).toBeVisible();
    expect(firstColumn()).toEqual(['21', '22', '23']);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByText('page 2 of 3')).toBeVisible();
  });

  it('changing the page size goes back to page 1 and is remembered under the screen key', async () => {
    const user = userEvent.setup();
    renderTable({ data: countries(60) });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('page 2 of 6')).toBeVisible();
    await choosePageSize(user, '25');

    expect(screen.getByText('page 1 of 3')).toBeVisible();
    expect(firstColumn()).toHaveLength(25);
    expect(firstColumn()[0]).toBe('1');
    expect(localStorage.getItem(KEY)).toBe('25');
  });

  it('starts with the remembered page size', () => {
    localStorage.setItem(KEY, '50');
    renderTable();
    expect(firstColumn()).toHaveLength(23);
    expect(screen.getByRole('combobox', { name: 'Rows per page' })).toHaveTextContent('50');
  });

  it.each(['7', '25abc', 'abc', '-10'])('ignores an invalid stored page size %j', (stored) => {
    localStorage.setItem(KEY, stored);
    renderTable();
    expect(firstColumn()).toHaveLength(10);
    expect(screen.getByText('page 1 of 3')).toBeVisible();
  });

  it('steps back a page after the last row of a page was deleted', async () => {
    const user = userEvent.setup();
    const { ref, rerender } = renderTable({ data: countries(21) });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('page 3 of 3')).toBeVisible();

    // The screen reports the deletion before its list reloads: the table steps back at once.
    act(() => ref.current!.rowDeleted());
    expect(screen.getByText('page 2 of 3')).toBeVisible();
    rerender(tableElement(ref, { data: countries(20) }));
    expect(screen.getByText('page 2 of 2')).toBeVisible();
  });

  it('stays on the page when a row that was not the last one was deleted', async () => {
    const user = userEvent.setup();
    const { ref } = renderTable();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    act(() => ref.current!.rowDeleted());
    expect(screen.getByText('page 2 of 3')).toBeVisible();
  });
});

describe('DataTable sorting', () => {
  it('sorts by a header: ascending first, then toggles to descending', async () => {
    const user = userEvent.setup();
    renderTable({ data: countries(5) });
    const nameHeader = screen.getByRole('columnheader', { name: /Country name/ });
    expect(nameHeader).toHaveAttribute('aria-sort', 'none');

    await user.click(within(nameHeader).getByRole('button'));
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(firstColumn()).toEqual(['5', '4', '3', '2', '1']);

    await user.click(within(nameHeader).getByRole('button'));
    expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
    expect(firstColumn()).toEqual(['1', '2', '3', '4', '5']);

    await user.click(within(nameHeader).getByRole('button'));
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  });

  it('sorts numbers ascending on the first click too', async () => {
    const user = userEvent.setup();
    renderTable({ data: countries(5), initialSorting: [{ id: 'name', desc: false }] });
    const idHeader = screen.getByRole('columnheader', { name: /ID/ });
    await user.click(within(idHeader).getByRole('button'));
    expect(idHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(firstColumn()).toEqual(['1', '2', '3', '4', '5']);
  });

  it('applies the initial sorting', () => {
    renderTable({ data: countries(5), initialSorting: [{ id: 'id', desc: true }] });
    expect(firstColumn()).toEqual(['5', '4', '3', '2', '1']);
    expect(screen.getByRole('columnheader', { name: /ID/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  it('goes back to page 1 when the sort changes', async () => {
    const user = userEvent.setup();
    renderTable();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('page 2 of 3')).toBeVisible();
    await user.click(
      within(screen.getByRole('columnheader', { name: /Country name/ })).getByRole('button'),
    );
    expect(screen.getByText('page 1 of 3')).toBeVisible();
    expect(firstColumn()[0]).toBe('23');
  });

  it('does not make display columns sortable', () => {
    renderTable();
    const actions = screen.getByRole('columnheader', { name: 'Actions' });
    expect(actions).not.toHaveAttribute('aria-sort');
    expect(within(actions).queryByRole('button')).toBeNull();
  });
});

describe('DataTable states', () => {
  it('loading: skeleton rows and an accessible Loading... text, no pager', () => {
    renderTable({ data: undefined, isLoading: true });
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.getByRole('table', { name: 'Countries' })).toHaveAttribute('aria-busy', 'true');
    expect(document.querySelectorAll('[data-slot="skeleton"]').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
  });

  it('error: the exact API error text in an alert, with Retry', async () => {
    const user = userEvent.setup();
    const onRetry = vi.fn();
    renderTable({
      data: undefined,
      error: new ApiError('API request to api/countries failed with status 500', {
        status: 500,
        statusText: 'Internal Server Error',
      }),
      onRetry,
    });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'API Error: API request to api/countries failed with status 500 (Status: 500)',
    );
    expect(
      screen.getByText(
        'API Error: API request to api/countries failed with status 500 (Status: 500)',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it("loading and error in the screen's own words", () => {
    const { rerender, ref } = renderTable({
      data: undefined,
      isLoading: true,
      loadingText: 'Loading forms data...',
    });
    expect(screen.getByRole('status')).toHaveTextContent('Loading forms data...');
    expect(screen.getByRole('status')).not.toHaveClass('sr-only');
    rerender(
      tableElement(ref, {
        data: undefined,
        error: new ApiError('x', { status: 502, statusText: 'Bad Gateway' }),
        errorText: (error) => `Failed to fetch forms: ${(error as ApiError).status}`,
      }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch forms: 502');
    expect(screen.queryByText(/API Error/)).toBeNull();
  });

  it('empty: the screen empty text and page 1 of 1', () => {
    renderTable({ data: [] });
    expect(screen.getByRole('cell', { name: 'No countries found.' })).toBeVisible();
    expect(screen.getByText('page 1 of 1')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('populated: the rows and their cells', () => {
    renderTable({ data: countries(2) });
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Delete' })).toHaveLength(2);
    expect(screen.getByRole('cell', { name: 'Country 002' })).toBeVisible();
  });
});

describe('DataTable server paging', () => {
  // The screen's words (here the events screen's): the table has none of its own but 'page X of Y'.
  const pagerTexts = {
    page: (page: number, pageCount: number) => `Page ${page} of ${pageCount}`,
    range: ({ from, to, total }: { from: number; to: number; total: number }) =>
      `Showing ${from} to ${to} of ${total} entries`,
  };

  function renderServerTable(page = 2, texts: typeof pagerTexts | null = pagerTexts) {
    const server = {
      page,
      pageSize: 10 as const,
      totalCount: 45,
      onPageChange: vi.fn(),
      onPageSizeChange: vi.fn(),
    };
    render(
      <DataTable<Country>
        columns={columns}
        data={countries(10)}
        label="Events"
        emptyText="No events found."
        server={server}
        pagerTexts={texts ?? undefined}
      />,
    );
    return server;
  }

  it("shows 'Page X of Y' and 'Showing a to b of n entries'", () => {
    renderServerTable();
    expect(screen.getByText('Page 2 of 5')).toBeVisible();
    expect(screen.getByText('Showing 11 to 20 of 45 entries')).toBeVisible();
    expect(firstColumn('Events')).toHaveLength(10);
  });

  it("says 'page X of Y' alone when the screen passes no words", () => {
    renderServerTable(2, null);
    expect(screen.getByText('page 2 of 5')).toBeVisible();
    expect(screen.queryByText(/Showing/)).toBeNull();
  });

  it('reports page and page-size changes to the screen', async () => {
    const user = userEvent.setup();
    const server = renderServerTable();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(server.onPageChange).toHaveBeenLastCalledWith(3);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(server.onPageChange).toHaveBeenLastCalledWith(1);
    await choosePageSize(user, '100');
    expect(server.onPageSizeChange).toHaveBeenLastCalledWith(100);
  });

  it('disables Next on the last page', () => {
    renderServerTable(5);
    expect(screen.getByText('Showing 41 to 45 of 45 entries')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});

describe('DataTable row selection', () => {
  /** The body row whose first cell is `id`. */
  const rowOf = (id: number) => {
    const row = screen.getByRole('cell', { name: String(id) }).closest('tr');
    if (!row) throw new Error(`No row ${id}`);
    return row;
  };

  it('selects by a click on the row, not on one of its controls, and marks it', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    renderTable({ getRowId: (row) => String(row.id), rowSelection: { selectedId: '2', onSelect } });
    expect(rowOf(2)).toHaveAttribute('aria-selected', 'true');
    expect(rowOf(3)).toHaveAttribute('aria-selected', 'false');
    await user.click(screen.getByRole('cell', { name: 'Country 021' }));
    expect(onSelect).toHaveBeenLastCalledWith({ id: 3, name: 'Country 021' });
    await user.click(within(rowOf(4)).getByRole('button', { name: 'Delete' }));
    expect(onSelect).toHaveBeenCalledTimes(1);
  });

  it('selects by Enter or Space on the focused row only', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    renderTable({
      getRowId: (row) => String(row.id),
      rowSelection: { selectedId: undefined, onSelect },
    });
    rowOf(5).focus();
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith({ id: 5, name: 'Country 019' });
    rowOf(6).focus();
    await user.keyboard(' ');
    expect(onSelect).toHaveBeenLastCalledWith({ id: 6, name: 'Country 018' });
    within(rowOf(6)).getByRole('button', { name: 'Delete' }).focus();
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledTimes(2);
  });

  it('leaves rows out of the tab order and unmarked without rowSelection', () => {
    renderTable();
    expect(rowOf(1)).not.toHaveAttribute('tabindex');
    expect(rowOf(1)).not.toHaveAttribute('aria-selected');
  });
});
