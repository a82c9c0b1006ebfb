import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { signedInApi, signInAs, staffMember, toast } from './helpers.ts';

/**
 * Verbs of the tenants, tenant users, entities and entity users scenarios (spec part 1,
 * section 2): going to the screens, filling the dialogs, reading the paged tables, and the API
 * calls a test makes to set up and clean up its own data.
 */

/** A name or address unique to this run and this call. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
}

// ---------------------------------------------------------------------------------------------
// Screens and tables

async function goToScreen(page: Page, path: string, title: string): Promise<Locator> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const table = page.getByRole('table', { name: title });
  await expect(table).toBeVisible();
  await expect(table).not.toHaveAttribute('aria-busy', 'true');
  // The first row has text: a loaded row, or the screen's empty text (skeleton rows are hidden).
  await expect(bodyRows(table).first().getByRole('cell').first()).not.toBeEmpty();
  return table;
}

export const goToTenants = (page: Page) => goToScreen(page, '/dashboard/tenants', 'Tenants');
export const goToTenantUsers = (page: Page) =>
  goToScreen(page, '/dashboard/tenant-users', 'Tenant Users');
export const goToEntities = (page: Page) => goToScreen(page, '/dashboard/entities', 'Entities');
export const goToEntityUsers = (page: Page) =>
  goToScreen(page, '/dashboard/entity-users', 'Entity Users');

/** The rows of the table's body (its second row group; the first holds the header). */
export function bodyRows(table: Locator): Locator {
  return table.getByRole('rowgroup').nth(1).getByRole('row');
}

/** The row holding a cell with exactly this text. */
export function rowWith(table: Locator, text: string): Locator {
  return bodyRows(table).filter({
    has: table.page().getByRole('cell', { name: text, exact: true }),
  });
}

/** The text of one column of every body row of the page shown. */
export async function columnTexts(table: Locator, index: number): Promise<string[]> {
  const texts: string[] = [];
  for (const row of await bodyRows(table).all()) {
    texts.push(await row.getByRole('cell').nth(index).innerText());
  }
  return texts;
}

/**
 * How to recognise that a server-paged list (entities, entity users) shows the page the server
 * just answered: the column and the text its first row has. Until then the table keeps showing
 * the page before, under the new page number.
 */
export interface ListPageProbe {
  /** The list call, e.g. /\/api\/Entity\?/. */
  call: RegExp;
  column: number;
  firstRowText: (item: Record<string, unknown>) => string;
}

/** Runs `action` (Next, a page size) and waits until the table shows the page it loaded. */
export async function showListPage(
  table: Locator,
  probe: ListPageProbe,
  action: () => Promise<void>,
): Promise<void> {
  const page = table.page();
  const response = page.waitForResponse(
    (candidate) => probe.call.test(candidate.url()) && candidate.request().method() === 'GET',
  );
  await action();
  const { data } = (await (await response).json()) as { data: Record<string, unknown>[] };
  const [first] = data;
  if (first) {
    await expect(bodyRows(table).first().getByRole('cell').nth(probe.column)).toHaveText(
      probe.firstRowText(first),
    );
  }
}

/** Runs `visit` on every page of a server-paged list, from the one shown to the last. */
export async function forEachListPage(
  table: Locator,
  probe: ListPageProbe,
  visit: () => Promise<void>,
): Promise<number> {
  const next = table.page().getByRole('button', { name: 'Next', exact: true });
  let pages = 1;
  await visit();
  while (await next.isEnabled()) {
    await showListPage(table, probe, () => next.click());
    pages += 1;
    await visit();
  }
  return pages;
}

export const entityPages: ListPageProbe = {
  call: /\/api\/Entity\?/,
  column: 0,
  firstRowText: (entity) => String(entity.partyEntityId),
};
export const entityUserPages: ListPageProbe = {
  call: /\/api\/EntityUser\?/,
  column: 4,
  firstRowText: (user) => (typeof user.email === 'string' ? user.email : 'N/A'),
};

export async function choosePageSize(page: Page, size: 10 | 25 | 50 | 100): Promise<void> {
  await page.getByRole('combobox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: String(size), exact: true }).click();
}

/** Confirms the open confirmation dialog with its Delete button. */
export async function confirmDeletion(page: Page, title: string): Promise<void> {
  const dialog = page.getByRole('alertdialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog).toBeHidden();
}

// ---------------------------------------------------------------------------------------------
// Dialogs

export async function chooseOption(dialog: Locator, field: string, option: string): Promise<void> {
  await dialog.getByRole('combobox', { name: field }).click();
  await dialog.page().getByRole('option', { name: option, exact: true }).click();
}

/** Adds a tenant through the Add Tenant dialog and waits for its row. */
export async function addTenant(
  page: Page,
  tenant: { companyName: string; country: string; namespaces?: string[] },
): Promise<void> {
  const table = await goToTenants(page);
  await page.getByRole('button', { name: 'Add Tenant' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Tenant' });
  await dialog.getByRole('textbox', { name: 'Company Name' }).fill(tenant.companyName);
  await chooseOption(dialog, 'Domicile Country', tenant.country);
  for (const namespace of tenant.namespaces ?? []) {
    await dialog.getByRole('textbox', { name: 'Namespaces' }).fill(namespace);
    await dialog.getByRole('button', { name: 'Add namespace' }).click();
  }
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, `Tenant ${tenant.companyName} created`)).toBeVisible();
  await choosePageSize(page, 100);
  await expect(rowWith(table, tenant.companyName)).toHaveCount(1);
}

/** Registers an email as a user of a tenant through the Add Tenant User dialog. */
export async function addTenantUser(page: Page, email: string, tenant: string): Promise<void> {
  const table = await goToTenantUsers(page);
  await page.getByRole('button', { name: 'Add Tenant User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Tenant User' });
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
  await chooseOption(dialog, 'Tenant', tenant);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, `Tenant user ${email} added`)).toBeVisible();
  await choosePageSize(page, 100);
  await expect(rowWith(table, email)).toHaveCount(1);
}

/** Removes a tenant user through its Delete button and the confirmation. */
export async function removeTenantUser(page: Page, email: string): Promise<void> {
  const table = await goToTenantUsers(page);
  await choosePageSize(page, 100);
  await page.getByRole('button', { name: `Delete ${email}`, exact: true }).click();
  await confirmDeletion(page, 'Remove tenant user?');
  await expect(toast(page, `Tenant user ${email} removed`)).toBeVisible();
  await expect(rowWith(table, email)).toHaveCount(0);
}

// ---------------------------------------------------------------------------------------------
// The API, for a test's own set-up and clean-up

export interface TenantRow {
  id: number;
  companyName: string;
}
export interface TenantUserRow {
  id: number;
  email: string;
  tenantId: number;
}
export interface EntityRow {
  partyEntityId: string;
  tenantId: number;
  tenantName: string;
  displayName: string;
}

/** The tenants calls as the signed-in user of `page`; the reads fail the test unless they succeed. */
export async function apiAs(page: Page) {
  const api = await signedInApi(page);
  const read = <T>(path: string) => api.json<T>(api.get(path));
  return {
    tenants: () => read<TenantRow[]>('/api/tenants'),
    tenantUsers: () => read<TenantUserRow[]>('/api/tenantusers'),
    /** Every entity of a tenant (the demo tenants have far fewer than 1,000). */
    entitiesOf: async (tenantId: number) =>
      (await read<{ data: EntityRow[] }>(`/api/Entity?tenantId=${tenantId}&limit=1000`)).data,
    deleteTenantUser: (id: number) => api.delete(`/api/tenantusers/${id}`),
    deleteTenant: (id: number) => api.delete(`/api/tenants/${id}`),
  };
}

/**
 * Runs `work` as staff in a browser context of its own (the test's page keeps its own session),
 * e.g. to clean up after a test signed in as someone else.
 */
export async function asStaff<T>(
  browser: Browser,
  work: (page: Page, api: Awaited<ReturnType<typeof apiAs>>) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await signInAs(page, staffMember.email);
    return await work(page, await apiAs(page));
  } finally {
    await context.close();
  }
}

/** Removes the tenant user with this email, if registered, and the tenants of these names. */
export async function cleanUp(
  browser: Browser,
  { emails = [], tenants = [] }: { emails?: string[]; tenants?: string[] },
): Promise<void> {
  await asStaff(browser, async (_, api) => {
    const users = await api.tenantUsers();
    for (const user of users.filter((row) => emails.includes(row.email))) {
      await api.deleteTenantUser(user.id);
    }
    for (const tenant of (await api.tenants()).filter((row) => tenants.includes(row.companyName))) {
      await api.deleteTenant(tenant.id);
    }
  });
}
