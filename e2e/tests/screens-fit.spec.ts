import { expect, test, type Page } from '@playwright/test';
import {
  admin,
  goToLogin,
  portalUser,
  settingsGroup,
  signInAs,
  tenantPortalItems,
  tenantsGroup,
} from './helpers.ts';

// Every screen fits a common office laptop's window: the page never scrolls sideways (wide tables
// scroll inside their own container, header buttons wrap), at 1280×800 and 1366×768.

const LAPTOP_WINDOWS = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
] as const;

/** Every route of the route table (apps/web/src/app/routes.tsx) a staff administrator can open. */
const STAFF_SCREENS: readonly string[] = [
  '/dashboard',
  ...tenantsGroup.map((item) => item.path),
  ...settingsGroup.map((item) => item.path),
  '/dashboard/email-templates/new',
  '/dashboard/fatf-import',
  '/fatf/data',
  '/docs/fatf-import',
  '/docs/terms',
  '/docs/privacy',
  '/no-such-page',
];
const TENANT_SCREENS: readonly string[] = [
  '/dashboard',
  ...tenantPortalItems.map((item) => item.path),
];

/** Opens the screen and waits until it has drawn its data (no request and no skeleton left). */
async function openScreen(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

async function expectNoSidewaysScroll(page: Page, path: string): Promise<void> {
  // Runs in the page: `document.documentElement` (the e2e project is typed without the DOM).
  const { scrollWidth, clientWidth } = await page
    .locator('html')
    .evaluate((root) => ({ scrollWidth: root.scrollWidth, clientWidth: root.clientWidth }));
  expect(
    scrollWidth,
    `${path} is ${scrollWidth} px wide in a ${clientWidth} px window`,
  ).toBeLessThanOrEqual(clientWidth);
}

for (const size of LAPTOP_WINDOWS) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });
    // One sign-in, then some twenty screens each loaded from scratch.
    test.describe.configure({ timeout: 300_000 });

    test('the login screen and every screen of a staff administrator fit the window', async ({
      page,
    }) => {
      await goToLogin(page);
      await expectNoSidewaysScroll(page, '/login');
      await signInAs(page, admin.email);
      for (const path of STAFF_SCREENS) {
        await openScreen(page, path);
        await expectNoSidewaysScroll(page, path);
      }
    });

    test('every screen of a tenant-portal user fits the window', async ({ page }) => {
      await signInAs(page, portalUser.email);
      for (const path of TENANT_SCREENS) {
        await openScreen(page, path);
        await expectNoSidewaysScroll(page, path);
      }
    });
  });
}
