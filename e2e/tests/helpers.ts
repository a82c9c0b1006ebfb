import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type APIResponse, type Locator, type Page } from '@playwright/test';

/**
 * Verbs of the end-to-end scenarios: signing in through the embedded identity provider, finding
 * the parts of the dashboard shell, checking accessibility. Selection is by role and accessible
 * name, as a user (or a screen reader) finds things.
 */

export interface DemoUser {
  email: string;
  name: string;
  initials: string;
}

/** Demo accounts of the embedded identity provider (apps/server/src/auth/demo-accounts.ts). */
export const admin: DemoUser = { email: 'admin@example.com', name: 'Ada Admin', initials: 'AA' };
export const portalUser: DemoUser = {
  email: 'portal@acme.example',
  name: 'Pat Portal',
  initials: 'PP',
};
export const staffMember: DemoUser = {
  email: 'staff@example.com',
  name: 'Sam Staff',
  initials: 'SS',
};
export const outsider: DemoUser = {
  email: 'outsider@example.org',
  name: 'Olly Outsider',
  initials: 'OO',
};

export interface NavigationItem {
  label: string;
  path: string;
}

/** The sidebar's two groups, in order (spec part 1, section 2, "Dashboard shell"). */
export const tenantsGroup: readonly NavigationItem[] = [
  { label: 'Tenants', path: '/dashboard/tenants' },
  { label: 'Tenant Users', path: '/dashboard/tenant-users' },
  { label: 'Entities', path: '/dashboard/entities' },
  { label: 'Entity Users', path: '/dashboard/entity-users' },
  { label: 'Events', path: '/dashboard/events' },
  { label: 'Audit Log', path: '/dashboard/audit-log' },
];
export const settingsGroup: readonly NavigationItem[] = [
  { label: 'Countries', path: '/dashboard/countries' },
  { label: 'Document Types', path: '/dashboard/document-types' },
  { label: 'Email Settings', path: '/dashboard/email-settings' },
  { label: 'Email Templates', path: '/dashboard/email-templates' },
  { label: 'Forms', path: '/dashboard/forms' },
  { label: 'Form Fields', path: '/dashboard/form-fields' },
  { label: 'Database Migrations', path: '/dashboard/migrations' },
  { label: 'Database Scripts', path: '/dashboard/database-scripts' },
];

/** What a tenant-portal user may open (ARCHITECTURE.md, roles: `tenant`). */
export const tenantPortalItems: readonly NavigationItem[] = tenantsGroup.filter((item) =>
  ['Entities', 'Entity Users', 'Events'].includes(item.label),
);

// ---------------------------------------------------------------------------------------------
// Where the browser is

/** Waits until the browser shows `path` (the pathname only; query and hash are ignored). */
export async function expectToBeOn(page: Page, path: string): Promise<void> {
  await expect
    .poll(() => new URL(page.url()).pathname, { message: `expected to be on ${path}` })
    .toBe(path);
}

// ---------------------------------------------------------------------------------------------
// Signing in and out

export async function goToLogin(page: Page): Promise<void> {
  await page.goto('/login');
  await expect(continueWithMicrosoftButton(page)).toBeVisible();
}

export function continueWithMicrosoftButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Continue with Microsoft' });
}

/** The embedded identity provider's own page (not part of the SPA). */
export function identityProviderPage(page: Page): Locator {
  return page.getByRole('heading', { name: 'Sign in', level: 1 });
}

/**
 * Goes through the login screen and the provider's page as `email`, without waiting for where
 * the console sends the browser afterwards (the dashboard, or the refusal page).
 */
export async function submitSignIn(page: Page, email: string): Promise<void> {
  await goToLogin(page);
  await continueWithMicrosoftButton(page).click();
  await expect(identityProviderPage(page)).toBeVisible();
  // A demo account has its own button named exactly by its email; any other address is typed.
  const accountButton = page.getByRole('button', { name: email, exact: true });
  if ((await accountButton.count()) > 0) {
    await accountButton.click();
  } else {
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }
}

/** Signs in through the real OIDC flow and waits for the dashboard shell. */
export async function signInAs(page: Page, email: string): Promise<void> {
  await submitSignIn(page, email);
  await expectToBeOn(page, '/dashboard');
  // The breadcrumb shows at every width; the user menu sits in the closed panel on a phone.
  await expect(breadcrumb(page)).toHaveText('Dashboard');
}

/** A `test.describe` block whose tests each start signed in as `user` (through `signInAs`). */
export function describeSignedInAs(title: string, user: DemoUser, body: () => void): void {
  test.describe(title, () => {
    test.beforeEach(async ({ page }) => {
      await signInAs(page, user.email);
    });
    body();
  });
}

/**
 * The sidebar footer's button that shows the signed-in user (initials, name, email) and opens
 * the user menu: the only button of the shell whose name holds an email address.
 */
export function userMenuButton(page: Page): Locator {
  return page.getByRole('button', { name: /@/ });
}

export async function openUserMenu(page: Page): Promise<Locator> {
  await userMenuButton(page).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}

/** Log out from the user menu; the console ends the session and shows the login screen. */
export async function signOut(page: Page): Promise<void> {
  const menu = await openUserMenu(page);
  await menu.getByRole('menuitem', { name: 'Log out' }).click();
  await expectToBeOn(page, '/login');
  await expect(continueWithMicrosoftButton(page)).toBeVisible();
}

/** An item the app keeps in local storage, or null. */
export async function storedItem(page: Page, key: string): Promise<string | null> {
  const { origins } = await page.context().storageState();
  const items = origins.flatMap((origin) => origin.localStorage);
  return items.find((item) => item.name === key)?.value ?? null;
}

/** The session the app keeps in local storage under `auth_tokens` (spec 3), or null. */
export function storedAuthTokens(page: Page): Promise<string | null> {
  return storedItem(page, 'auth_tokens');
}

/**
 * The API as the signed-in user of `page`, with the access token the app keeps under
 * `auth_tokens`: what the features' helpers build their set-up and clean-up calls on. `ok` and
 * `json` fail the test unless the server answers with a success; the plain calls leave the
 * status to the caller (a clean-up may meet a 404).
 */
export async function signedInApi(page: Page) {
  const { accessToken } = JSON.parse((await storedAuthTokens(page)) ?? '{}') as {
    accessToken?: string;
  };
  if (!accessToken) throw new Error('not signed in');
  const headers = { Authorization: `Bearer ${accessToken}` };
  const ok = async (call: Promise<APIResponse>) => {
    const response = await call;
    expect(response.ok(), `${response.url()} answered ${response.status()}`).toBe(true);
    return response;
  };
  return {
    get: (path: string) => page.request.get(path, { headers }),
    post: (path: string, data?: unknown) => page.request.post(path, { headers, data }),
    put: (path: string, data?: unknown) => page.request.put(path, { headers, data }),
    delete: (path: string) => page.request.delete(path, { headers }),
    ok,
    json: async <T>(call: Promise<APIResponse>) => (await (await ok(call)).json()) as T,
  };
}

/** What `GET /auth/session` says about this browser's session. */
export async function sessionStatus(page: Page): Promise<{ status: number; body: unknown }> {
  const response = await page.request.get('/auth/session');
  return { status: response.status(), body: await response.json() };
}

// ---------------------------------------------------------------------------------------------
// The dashboard shell

/** The sidebar's navigation (desktop: the fixed sidebar; mobile: inside the slide-in panel). */
/** A toast with exactly this text, or matching this pattern (sonner's notifications region). */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });
}

export function sidebarNavigation(scope: Page | Locator): Locator {
  return scope.getByRole('navigation', { name: 'Main' });
}

/** A group of the sidebar: its list of items is named by the group's label. */
export function navigationGroup(scope: Page | Locator, name: 'Tenants' | 'Settings'): Locator {
  return sidebarNavigation(scope).getByRole('list', { name, exact: true });
}

export function navigationLink(scope: Page | Locator, label: string): Locator {
  return sidebarNavigation(scope).getByRole('link', { name: label, exact: true });
}

/** The navigation items marked as the current page (aria-current="page"): at most one. */
export function highlightedNavigationItems(page: Page): Locator {
  return sidebarNavigation(page).locator('[aria-current="page"]');
}

export function breadcrumb(page: Page): Locator {
  return page.getByRole('navigation', { name: 'breadcrumb' });
}

/**
 * The desktop sidebar, which carries its expanded/collapsed state in `data-state` (shadcn/ui).
 * It has no role or name of its own, so this is the one place that selects by attribute.
 */
export function desktopSidebar(page: Page): Locator {
  return page.locator('[data-slot="sidebar"]:not([data-mobile])');
}

/** Rendered width of the sidebar's navigation: 16rem expanded, 3rem collapsed (spec 9). */
export async function sidebarNavigationWidth(page: Page): Promise<number | undefined> {
  return (await sidebarNavigation(page).boundingBox())?.width;
}

/** The sidebar shows only icons: `data-state` says collapsed and it is 3rem (48 px) wide. */
export async function expectSidebarCollapsed(page: Page): Promise<void> {
  await expect(desktopSidebar(page)).toHaveAttribute('data-state', 'collapsed');
  await expect.poll(() => sidebarNavigationWidth(page)).toBeLessThanOrEqual(48);
}

/** The sidebar shows its labels: `data-state` says expanded and it is 16rem (256 px) wide. */
export async function expectSidebarExpanded(page: Page): Promise<void> {
  await expect(desktopSidebar(page)).toHaveAttribute('data-state', 'expanded');
  await expect.poll(() => sidebarNavigationWidth(page)).toBeGreaterThan(200);
}

/** The header button that opens the slide-in panel on a small screen. */
export function sidebarTrigger(page: Page): Locator {
  return page.getByRole('button', { name: 'Toggle Sidebar', exact: true });
}

/** The slide-in panel (a dialog) that holds the sidebar at or below 768 px. */
export function sidebarPanel(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Sidebar' });
}

/** The team switcher at the top of the sidebar: the fixed team and its plan. */
export function teamSwitcher(page: Page): Locator {
  return page.getByRole('button', { name: /Verification Console/ });
}

export async function sidebarCookie(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find((cookie) => cookie.name === 'sidebar:state')?.value;
}

/** Ctrl+B (or Cmd+B) toggles the sidebar (spec 9: shortcut key b with Ctrl or Meta). */
export async function pressSidebarShortcut(page: Page, modifier: 'Control' | 'Meta' = 'Control') {
  await page.keyboard.press(`${modifier}+b`);
}

// ---------------------------------------------------------------------------------------------
// Accessibility

/**
 * Runs axe on the page and fails on any serious or critical violation, listing them. `exclude`
 * leaves out what axe cannot enter (a frame whose sandbox forbids scripts).
 */
export async function expectNoSeriousAccessibilityViolations(
  page: Page,
  options: { exclude?: string } = {},
): Promise<void> {
  const builder = new AxeBuilder({ page });
  if (options.exclude) builder.exclude(options.exclude);
  const results = await builder.analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
  expect(serious, 'serious or critical accessibility violations').toEqual([]);
}
