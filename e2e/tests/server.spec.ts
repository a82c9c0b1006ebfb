import { expect, test } from '@playwright/test';

test('the server serves the app and its configuration', async ({ page, request }) => {
  const config = await request.get('/app-config');
  expect(config.ok()).toBe(true);
  expect(await config.json()).toEqual({
    apiBaseUrl: expect.stringMatching(/^http:\/\/localhost:\d+$/),
  });

  await page.goto('/');
  await expect(page.locator('#root')).not.toBeEmpty();
});
