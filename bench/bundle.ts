import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions, ratio, startConsoleServer } from './lib.ts';

// Budgets from the foundation issue, and what a popular shadcn/ui admin template sends, for scale.
const LOGIN_BUDGET_BYTES = 100_000;
const SHELL_BUDGET_BYTES = 187_000;
const TEMPLATE_LOGIN_BYTES = 230_000;
const TEMPLATE_SHELL_BYTES = 375_000;

/** The sidebar's screens; each link's text is its screen's title (spec part 1, section 2). */
const SIDEBAR_SCREENS = [
  'Tenants',
  'Tenant Users',
  'Entities',
  'Entity Users',
  'Events',
  'Countries',
  'Document Types',
  'Email Settings',
  'Email Templates',
  'Forms',
  'Form Fields',
  'Database Migrations',
  'Database Scripts',
] as const;

/**
 * Gzip bytes of the JavaScript a browser downloads before the login screen, and before the
 * dashboard shell, is usable (headless Chromium against the real server); then what each
 * sidebar screen adds when opened from the shell (its chunk, its texts and what it shares with
 * screens not opened before it).
 */
export async function benchBundle(): Promise<void> {
  const server = await startConsoleServer(3203);
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const loginPage = await browser.newPage();
    const loginBytes = await javascriptBytesUntil(recordScripts(loginPage), async () => {
      await loginPage.goto(`${server.url}/login`);
      await loginPage.getByRole('button', { name: 'Continue with Microsoft' }).waitFor();
    });

    // Sign in through the embedded identity provider, then load the shell with an empty cache.
    const context = await browser.newContext();
    const shellPage = await context.newPage();
    await shellPage.goto(`${server.url}/authenticated`);
    await shellPage.getByRole('button', { name: 'admin@example.com' }).click();
    await shellPage.waitForURL(/\/dashboard/);
    const fresh = await context.newPage();
    const cdp = await context.newCDPSession(fresh);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scripts = recordScripts(fresh);
    const shellBytes = await javascriptBytesUntil(scripts, async () => {
      await fresh.goto(`${server.url}/dashboard`);
      await fresh.getByRole('link', { name: 'Countries' }).waitFor();
    });

    report('login', loginBytes, LOGIN_BUDGET_BYTES, TEMPLATE_LOGIN_BYTES);
    report('shell', shellBytes, SHELL_BUDGET_BYTES, TEMPLATE_SHELL_BYTES);
    console.log(
      'bundle: JavaScript each screen adds, opened in this order (sidebar, then Countries)',
    );
    for (const title of SIDEBAR_SCREENS) {
      const bytes = await javascriptBytesUntil(scripts, async () => {
        await fresh.getByRole('link', { name: title, exact: true }).click();
        await fresh.getByRole('heading', { level: 1, name: title }).waitFor();
      });
      console.log(`  ${title.padEnd(20)}: ${(bytes / 1000).toFixed(1)} kB gzip`);
    }
    // The fourteenth screen has no sidebar link: Countries' header button opens it.
    await fresh.getByRole('link', { name: 'Countries', exact: true }).click();
    const ratingsImportBytes = await javascriptBytesUntil(scripts, async () => {
      await fresh.getByRole('button', { name: 'Import FATF data' }).click();
      await fresh.getByRole('heading', { level: 1, name: 'FATF Ratings Import' }).waitFor();
    });
    console.log(
      `  ${'FATF Ratings Import'.padEnd(20)}: ${(ratingsImportBytes / 1000).toFixed(1)} kB gzip`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** Gzip size of every script the page receives, by URL. */
function recordScripts(page: Page): Map<string, Promise<number>> {
  const scripts = new Map<string, Promise<number>>();
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!type.includes('javascript')) return;
    scripts.set(
      response.url(),
      response.body().then((body) => gzipSync(body).length),
    );
  });
  return scripts;
}

/** Gzip bytes of the scripts that arrived while `ready` ran. */
async function javascriptBytesUntil(
  scripts: Map<string, Promise<number>>,
  ready: () => Promise<void>,
): Promise<number> {
  const before = new Set(scripts.keys());
  await ready();
  const sizes = await Promise.all(
    [...scripts].filter(([url]) => !before.has(url)).map(([, size]) => size),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

function report(screen: string, bytes: number, budget: number, template: number): void {
  console.log(`bundle: JavaScript before the ${screen} screen is usable`);
  console.log(`  ours     : ${(bytes / 1000).toFixed(1)} kB gzip`);
  console.log(`  budget   : ${(budget / 1000).toFixed(0)} kB -> ratio ${ratio(bytes, budget)}`);
  console.log(
    `  template : ${(template / 1000).toFixed(0)} kB (shadcn/ui admin template) -> ratio ${ratio(bytes, template)}`,
  );
}
