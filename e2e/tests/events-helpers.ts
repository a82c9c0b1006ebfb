import { expect, type Locator, type Page } from '@playwright/test';
import { signedInApi } from './helpers.ts';

/**
 * Verbs of the events scenarios (spec part 1, section 2 "Events screen"): going to the screen,
 * reading its server-paged table, and the API calls a test makes as the signed-in user, including
 * the development SMTP catcher's.
 */

/** The events screen, loaded: returns its table. */
export async function goToEvents(page: Page): Promise<Locator> {
  await page.goto('/dashboard/events');
  await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Events' });
  await expect(table).toBeVisible();
  await expect(table).not.toHaveAttribute('aria-busy', 'true');
  await expect(eventRows(table).first().getByRole('cell').first()).not.toBeEmpty();
  return table;
}

/** The rows of the table's body (its second row group; the first holds the header). */
export function eventRows(table: Locator): Locator {
  return table.getByRole('rowgroup').nth(1).getByRole('row');
}

/** The row of the event with this ID (its first cell). */
export function eventRow(table: Locator, id: number): Locator {
  return eventRows(table).filter({
    has: table.page().locator('td:first-child', { hasText: new RegExp(`^${id}$`) }),
  });
}

/** Column positions of the events table. */
export const COLUMN = {
  id: 0,
  eventName: 1,
  status: 2,
  tenantId: 3,
  entityId: 4,
  createdAt: 5,
  metadata: 6,
  actions: 7,
} as const;

/** One column's text in every body row. */
export async function columnTexts(table: Locator, column: number): Promise<string[]> {
  const rows = await eventRows(table).all();
  return Promise.all(rows.map((row) => row.getByRole('cell').nth(column).innerText()));
}

/** 'Page X of Y' of the server-paged table. */
export function serverPageIndicator(page: Page): Locator {
  return page.getByText(/^Page \d+ of \d+$/);
}

/** 'Showing a to b of n entries'. */
export function showingEntries(page: Page): Locator {
  return page.getByText(/^Showing \d+ to \d+ of \d+ entries$/);
}

/** n of 'Showing a to b of n entries'. */
export async function totalEntries(page: Page): Promise<number> {
  const text = await showingEntries(page).innerText();
  return Number(/of (\d+) entries/.exec(text)?.[1]);
}

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  /** The text/html part, or null. */
  html: string | null;
}

/** The calls the events scenarios make as the signed-in user of `page`; each must succeed. */
export async function eventsApiAs(page: Page) {
  const api = await signedInApi(page);
  return {
    tenantId: async (companyName: string) => {
      const tenants = await api.json<{ id: number; companyName: string }[]>(
        api.get('/api/tenants'),
      );
      const tenant = tenants.find((candidate) => candidate.companyName === companyName);
      if (!tenant) throw new Error(`no tenant ${companyName}`);
      return tenant.id;
    },
    createTenantUser: (email: string, tenantId: number) =>
      api.json<{ id: number; email: string }>(api.post('/api/tenantusers', { email, tenantId })),
    deleteTenantUser: (id: number) => api.delete(`/api/tenantusers/${id}`),
    stopMailCatcher: () => api.json<{ running: boolean }>(api.post('/api/dev/mail/catcher/stop')),
    startMailCatcher: () => api.json<{ running: boolean }>(api.post('/api/dev/mail/catcher/start')),
    mailTo: async (address: string) =>
      (
        await api.json<{ messages: CaughtMail[] }>(
          api.get(`/api/dev/mail?to=${encodeURIComponent(address)}`),
        )
      ).messages,
  };
}
