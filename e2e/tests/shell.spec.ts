import { expect, test } from '@playwright/test';
import {
  admin,
  breadcrumb,
  describeSignedInAs,
  expectNoSeriousAccessibilityViolations,
  expectSidebarCollapsed,
  expectSidebarExpanded,
  expectToBeOn,
  highlightedNavigationItems,
  navigationGroup,
  navigationLink,
  portalUser,
  pressSidebarShortcut,
  settingsGroup,
  sidebarCookie,
  sidebarNavigation,
  sidebarPanel,
  sidebarTrigger,
  signInAs,
  staffMember,
  teamSwitcher,
  tenantPortalItems,
  tenantsGroup,
  userMenuButton,
} from './helpers.ts';

// Spec part 1, section 2 ("Dashboard shell"), section 4 ("Sidebar and toasts") and section 9
// (sidebar widths, cookie, breakpoint, shortcut).

describeSignedInAs('signed in as an administrator', admin, () => {
  test('the sidebar shows the whole navigation in its two groups', async ({ page }) => {
    await expect(navigationGroup(page, 'Tenants').getByRole('link')).toHaveText(
      tenantsGroup.map((item) => item.label),
    );
    await expect(navigationGroup(page, 'Settings').getByRole('link')).toHaveText(
      settingsGroup.map((item) => item.label),
    );
  });

  test('every navigation item leads to its page, highlighted, with its breadcrumb', async ({
    page,
  }) => {
    for (const item of [...tenantsGroup, ...settingsGroup]) {
      await navigationLink(page, item.label).click();

      await expectToBeOn(page, item.path);
      await expect(navigationLink(page, item.label)).toHaveAttribute('aria-current', 'page');
      await expect(highlightedNavigationItems(page)).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(item.label);
      await expect(breadcrumb(page).getByRole('listitem')).toHaveText(['Dashboard', item.label]);
      await expect(breadcrumb(page).getByRole('link')).toHaveText(['Dashboard']);
    }
  });

  test('the Dashboard crumb leads back to the dashboard, where it is not a link', async ({
    page,
  }) => {
    await navigationLink(page, 'Countries').click();
    await expectToBeOn(page, '/dashboard/countries');

    await breadcrumb(page).getByRole('link', { name: 'Dashboard' }).click();

    await expectToBeOn(page, '/dashboard');
    await expect(breadcrumb(page).getByRole('listitem')).toHaveText(['Dashboard']);
    await expect(breadcrumb(page).getByRole('link')).toHaveCount(0);
    await expect(highlightedNavigationItems(page)).toHaveCount(0);
  });

  test('the footer shows the signed-in user and the team switcher shows the plan', async ({
    page,
  }) => {
    await expect(userMenuButton(page)).toContainText(admin.name);
    await expect(userMenuButton(page)).toContainText(admin.email);
    await expect(userMenuButton(page)).toContainText(admin.initials);
    await expect(teamSwitcher(page)).toContainText('Enterprise');
  });

  test('Ctrl+B collapses the sidebar, remembers it across a reload, and expands it again', async ({
    page,
  }) => {
    await expectSidebarExpanded(page);

    await pressSidebarShortcut(page, 'Control');

    await expectSidebarCollapsed(page);
    await expect.poll(() => sidebarCookie(page)).toBe('false');

    await page.reload();
    await expectSidebarCollapsed(page);

    await pressSidebarShortcut(page, 'Control');

    await expectSidebarExpanded(page);
    await expect.poll(() => sidebarCookie(page)).toBe('true');
  });

  test('Cmd+B toggles the sidebar too', async ({ page }) => {
    await pressSidebarShortcut(page, 'Meta');
    await expectSidebarCollapsed(page);

    await pressSidebarShortcut(page, 'Meta');
    await expectSidebarExpanded(page);
  });

  test('the shell has no serious accessibility violation', async ({ page }) => {
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    await expectNoSeriousAccessibilityViolations(page);
  });
});

// "At or below 768 px wide it becomes a slide-in panel with its own open state."
for (const width of [375, 768]) {
  test.describe(`on a screen ${width} px wide`, () => {
    test.use({ viewport: { width, height: 812 } });

    test('the sidebar is a slide-in panel that closes after choosing an item', async ({ page }) => {
      await signInAs(page, admin.email);
      await expect(sidebarNavigation(page)).toBeHidden();

      await sidebarTrigger(page).click();

      await expect(sidebarPanel(page)).toBeVisible();
      await expect(navigationLink(sidebarPanel(page), 'Countries')).toBeVisible();

      await navigationLink(sidebarPanel(page), 'Countries').click();

      await expectToBeOn(page, '/dashboard/countries');
      await expect(sidebarPanel(page)).toBeHidden();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Countries');
    });
  });
}

test('a staff member who is not an administrator sees the whole navigation too', async ({
  page,
}) => {
  await signInAs(page, staffMember.email);

  await expect(sidebarNavigation(page).getByRole('link')).toHaveText(
    [...tenantsGroup, ...settingsGroup].map((item) => item.label),
  );
  await expect(userMenuButton(page)).toContainText(staffMember.name);
});

describeSignedInAs('signed in as a tenant-portal user', portalUser, () => {
  test('the navigation offers only the tenant portal screens', async ({ page }) => {
    await expect(sidebarNavigation(page).getByRole('link')).toHaveText(
      tenantPortalItems.map((item) => item.label),
    );
    await expect(userMenuButton(page)).toContainText(portalUser.name);
  });

  test('a staff-only screen says it is not available', async ({ page }) => {
    await page.goto('/dashboard/countries');

    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not available');
    await expect(page.getByText('This page is not available for your account.')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
  });
});
