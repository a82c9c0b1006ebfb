import { expect, test, type Page } from '@playwright/test';
import {
  admin,
  expectNoSeriousAccessibilityViolations,
  portalUser,
  signedInApi,
  signInAs,
} from './helpers.ts';
import { unique } from './tenant-helpers.ts';

// The dashboard's overview (issue 30, "An overview on the dashboard"): live figures under the
// welcome text, each card a link to its screen.

function card(page: Page, title: string) {
  return page.locator('[data-slot="card"]').filter({
    has: page.getByRole('link', { name: title, exact: true }),
  });
}

async function tenantsShown(page: Page): Promise<number> {
  const text = await card(page, 'Tenants').locator('p').first().textContent();
  return Number((text ?? '').replace(/,/g, ''));
}

test('staff see live figures that follow a change without reloading the page', async ({ page }) => {
  await signInAs(page, admin.email);
  await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
  await expect(card(page, 'Tenants')).toBeVisible();
  const before = await tenantsShown(page);
  await expect(
    card(page, 'Events').getByRole('table', { name: 'Event records per worker' }),
  ).toBeVisible();
  await expect(card(page, 'Database Migrations')).toContainText(
    'Up to date: no migration pending.',
  );

  const api = await signedInApi(page);
  const countries = await api.json<{ id: number }[]>(api.get('/api/countries'));
  const created = await api.json<{ id: number }>(
    api.post('/api/tenants', {
      companyName: unique('Overview Ltd'),
      domicileCountryId: countries[0]?.id,
      namespaces: [],
    }),
  );
  try {
    // The page asks again every 10 s and the server keeps an answer 5 s: within 20 s.
    await expect.poll(() => tenantsShown(page), { timeout: 20_000 }).toBe(before + 1);
  } finally {
    await api.ok(api.delete(`/api/tenants/${created.id}`));
  }

  await card(page, 'Tenants').getByRole('link', { name: 'Tenants' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tenants' })).toBeVisible();
});

test("a tenant user sees its own tenant's entities, entity users and events", async ({ page }) => {
  await signInAs(page, portalUser.email);
  await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
  await expect(card(page, 'Entities')).toBeVisible();
  await expect(card(page, 'Entity Users')).toBeVisible();
  await expect(card(page, 'Events')).toContainText(/\d+ waiting, \d+ failed/);
  await expect(page.getByRole('link', { name: 'Tenants', exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Last FATF import' })).toHaveCount(0);
});

test('the dashboard with its overview has no serious accessibility violation', async ({ page }) => {
  await signInAs(page, admin.email);
  await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
  await expectNoSeriousAccessibilityViolations(page);
});
