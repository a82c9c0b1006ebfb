import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions, ratio, startConsoleServer } from './lib.ts';

// Budgets (issue 32; the foundation issue's were 100 kB and 187 kB), and what a popular
// shadcn/ui admin template sends, for scale.
const LOGIN_BUDGET_BYTES = 80_000;
const SHELL_BUDGET_BYTES = 170_000;
/** What the first list screen opened from the shell (Tenants) may add. */
const FIRST_LIST_BUDGET_BYTES = 60_000;
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
 * screens not opened before it), and the first list screen opened by its address (all it needs,
 * whatever the shell would have loaded while idle before a click).
 */
export async function benchBundle(): Promise<void> {
  const server = await startConsoleServer(3203);
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    // The readiness checks are expressions evaluated in the page, which the console's policy
    // (no eval) would refuse; the policy changes nothing of what the page downloads.
    const loginPage = await browser.newPage({ bypassCSP: true });
    const loginBytes = await javascriptBytesBeforeUsable(
      loginPage,
      recordScripts(loginPage),
      `${server.url}/login`,
      `[...document.querySelectorAll('button')].some((b) => b.textContent.includes('Continue with Microsoft'))`,
    );

    // Sign in through the embedded identity provider, then load the shell with an empty cache.
    const context = await browser.newContext({ bypassCSP: true });
    const shellPage = await context.newPage();
    await shellPage.goto(`${server.url}/authenticated`);
    await shellPage.getByRole('button', { name: 'admin@example.com' }).click();
    await shellPage.waitForURL(/\/dashboard/);
    const fresh = await context.newPage();
    const cdp = await context.newCDPSession(fresh);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scripts = recordScripts(fresh);
    const shellBytes = await javascriptBytesBeforeUsable(
      fresh,
      scripts,
      `${server.url}/dashboard`,
      `[...document.querySelectorAll('nav[aria-label="Main"] a')].some((a) => a.textContent.trim() === 'Countries')`,
    );

    // The first list screen opened by its address, with an empty cache: everything it needs,
    // shell included, whatever the shell would have loaded while idle before a click.
    const deepLink = await context.newPage();
    const deepLinkCdp = await context.newCDPSession(deepLink);
    await deepLinkCdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const firstList = SIDEBAR_SCREENS[0];
    const deepLinkBytes = await javascriptBytesBeforeUsable(
      deepLink,
      recordScripts(deepLink),
      `${server.url}/dashboard/tenants`,
      `[...document.querySelectorAll('h1')].some((h) => h.textContent.trim() === '${firstList}')`,
    );
    await deepLink.close();

    report('login', loginBytes, LOGIN_BUDGET_BYTES, TEMPLATE_LOGIN_BYTES);
    report('shell', shellBytes, SHELL_BUDGET_BYTES, TEMPLATE_SHELL_BYTES);
    console.log(
      'bundle: JavaScript each screen adds, opened in this order (sidebar, then Countries)',
    );
    const added: number[] = [];
    for (const title of SIDEBAR_SCREENS) {
      // What the screen before still loads (the dashboard home's data, the idle-time toaster) is
      // not this screen's.
      await scriptsSettled(scripts);
      const bytes = await javascriptBytesUntil(scripts, async () => {
        await sidebarLink(fresh, title).click();
        await fresh.getByRole('heading', { level: 1, name: title }).waitFor();
      });
      added.push(bytes);
      console.log(`  ${title.padEnd(20)}: ${(bytes / 1000).toFixed(1)} kB gzip`);
    }
    // The fourteenth screen has no sidebar link: Countries' header button opens it.
    await sidebarLink(fresh, 'Countries').click();
    await scriptsSettled(scripts);
    const ratingsImportBytes = await javascriptBytesUntil(scripts, async () => {
      await fresh.getByRole('button', { name: 'Import FATF data' }).click();
      await fresh.getByRole('heading', { level: 1, name: 'FATF Ratings Import' }).waitFor();
    });
    console.log(
      `  ${'FATF Ratings Import'.padEnd(20)}: ${(ratingsImportBytes / 1000).toFixed(1)} kB gzip`,
    );
    console.log('bundle: against the budgets');
    verdict('login', loginBytes, LOGIN_BUDGET_BYTES);
    verdict('shell (14 screens registered)', shellBytes, SHELL_BUDGET_BYTES);
    verdict(`first list screen (${firstList})`, added[0] ?? 0, FIRST_LIST_BUDGET_BYTES);
    verdict(
      `${firstList} opened by its address`,
      deepLinkBytes,
      SHELL_BUDGET_BYTES + FIRST_LIST_BUDGET_BYTES,
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

/** A link of the sidebar (the dashboard's overview cards link to the same screens). */
function sidebarLink(page: Page, title: string) {
  return page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: title, exact: true });
}

/** Waits until no new script has arrived for half a second. */
async function scriptsSettled(scripts: Map<string, Promise<number>>): Promise<void> {
  let seen = -1;
  while (seen !== scripts.size) {
    seen = scripts.size;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Gzip bytes of the scripts the page had received when `usable` (a JavaScript expression, checked
 * in the page at every animation frame) first held. Both times are the page's own clock (Resource
 * Timing), so what loads just after (the shell's idle-time toaster and overview) is not counted
 * however late the bench itself notices.
 */
async function javascriptBytesBeforeUsable(
  page: Page,
  scripts: Map<string, Promise<number>>,
  url: string,
  usable: string,
): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  const usableAt = (await (
    await page.waitForFunction(`(${usable}) && performance.now()`, undefined, { polling: 'raf' })
  ).jsonValue()) as number;
  const received = await page.evaluate(
    `performance.getEntriesByType('resource').filter((entry) => entry.responseEnd <= ${usableAt}).map((entry) => entry.name)`,
  );
  const sizes = await Promise.all(
    (received as string[]).flatMap((name) => {
      const size = scripts.get(name);
      return size ? [size] : [];
    }),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
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

/** One figure against its budget, and whether it meets it. */
function verdict(what: string, bytes: number, budget: number): void {
  console.log(
    `  ${what.padEnd(34)}: ${(bytes / 1000).toFixed(1)} kB gzip, budget ${(budget / 1000).toFixed(0)} kB -> ${bytes <= budget ? 'meets' : 'MISSES'} the budget`,
  );
}
