import { defineConfig } from '@playwright/test';

// The end-to-end suite drives Debian's Chromium (never a downloaded browser) against the real
// server: built SPA, embedded identity provider, a fresh embedded database per run.
const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://localhost:${port}`;
const dataDir = process.env.E2E_DATA_DIR ?? `/tmp/console-e2e-${Date.now()}`;
// A second server of the same build on its own database, started one migration behind
// (MIGRATE_ON_START_HOLD_BACK, test only), for the database-maintenance scenario: applying the
// newest migration there leaves the main server's database as every other scenario expects it.
const maintenancePort = Number(process.env.E2E_MAINTENANCE_PORT ?? port + 1);
export const maintenanceURL = `http://localhost:${maintenancePort}`;
// A third server signs in at an independently written OpenID Connect provider instead of the
// embedded one (the sign-in-external-issuer scenario): oauth2-mock-server, which the scenario
// itself starts on this port of 127.0.0.1, standing in for Microsoft Entra ID. The server starts
// before the provider is up, as a console may start while its provider is down.
const externalIssuerPort = Number(process.env.E2E_EXTERNAL_ISSUER_PORT ?? port + 2);
export const externalIssuerURL = `http://localhost:${externalIssuerPort}`;
export const oidcProviderPort = Number(process.env.E2E_OIDC_PROVIDER_PORT ?? port + 90);
export const oidcClientSecret = 'e2e-client-secret';
// Playwright's default SIGKILLs a server's process group at the end, which leaves its embedded
// PostgreSQL (a group of its own) running: each run left three behind. SIGTERM lets each server
// stop as in production (shutdown.ts), its database with it.
const stopGracefully = { signal: 'SIGTERM', timeout: 20_000 } as const;

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: [
    {
      command: 'npm run serve --prefix ..',
      url: `${baseURL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: stopGracefully,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        PUBLIC_URL: baseURL,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        // Every test signs in through the real flow: far more than a person's 30 a minute.
        SIGN_IN_RATE_LIMIT_PER_MINUTE: '1000',
        // The development SMTP catcher, on a port of its own: the events scenario reads the
        // invitations it catches (GET /api/dev/mail) and stops it to make the mail worker fail.
        SMTP_CATCHER_PORT: process.env.E2E_SMTP_CATCHER_PORT ?? '19125',
      },
    },
    {
      command: 'npm run serve --prefix ..',
      url: `${maintenanceURL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: stopGracefully,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(maintenancePort),
        PUBLIC_URL: maintenanceURL,
        DATA_DIR: `${dataDir}-maintenance`,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        SIGN_IN_RATE_LIMIT_PER_MINUTE: '1000',
        MIGRATE_ON_START_HOLD_BACK: '1',
      },
    },
    {
      command: 'npm run serve --prefix ..',
      url: `${externalIssuerURL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: stopGracefully,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(externalIssuerPort),
        PUBLIC_URL: externalIssuerURL,
        DATA_DIR: `${dataDir}-external-issuer`,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        SIGN_IN_RATE_LIMIT_PER_MINUTE: '1000',
        OIDC_ISSUER: `http://127.0.0.1:${oidcProviderPort}`,
        OIDC_CLIENT_ID: 'console',
        OIDC_CLIENT_SECRET: oidcClientSecret,
        OIDC_PROMPT: 'select_account',
        ADMIN_EMAILS: 'admin@example.com',
        STAFF_EMAILS: '@example.com',
      },
    },
  ],
});
