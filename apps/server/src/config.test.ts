import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

function problemsOf(environment: Record<string, string>): string[] {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('starts with embedded defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    // data/ at the repository root, not below whatever directory npm started the server in.
    expect(config.database).toEqual({
      kind: 'embedded',
      dataDir: fileURLToPath(new URL('../../../data/postgres', import.meta.url)),
      port: 0,
      pool: { max: 20, statementTimeoutMs: 30_000, connectionTimeoutMs: 5_000 },
    });
    expect(
      loadConfig({ DATA_DIR: '/srv/console', EMBEDDED_POSTGRES_PORT: '5433' }).database,
    ).toMatchObject({ kind: 'embedded', dataDir: '/srv/console/postgres', port: 5433 });
    expect(config.migrateOnStart).toBe(true);
    expect(config.seedDemoData).toBe(true);
    expect(config.oidc).toEqual({ kind: 'embedded' });
    expect(config.adminEmails).toEqual(['admin@example.com']);
  });

  it('uses PostgreSQL without migrating or seeding unless asked', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/console' });
    expect(config.database).toEqual({
      kind: 'server',
      connectionString: 'postgres://postgres@127.0.0.1:5432/console',
      pool: { max: 20, statementTimeoutMs: 30_000, connectionTimeoutMs: 5_000 },
    });
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://h/db',
        DATABASE_POOL_MAX: '50',
        DATABASE_STATEMENT_TIMEOUT_MS: '0',
        DATABASE_CONNECTION_TIMEOUT_MS: '250',
      }).database.pool,
    ).toEqual({ max: 50, statementTimeoutMs: 0, connectionTimeoutMs: 250 });
    expect(config.migrateOnStart).toBe(false);
    expect(config.seedDemoData).toBe(false);
    expect(
      loadConfig({ DATABASE_URL: 'postgres://h/db', MIGRATE_ON_START: 'true' }).migrateOnStart,
    ).toBe(true);
  });

  it('grants the demo roles only with the embedded identity provider', () => {
    expect(loadConfig({}).staffEmails).toEqual(['@example.com']);
    const external = loadConfig({
      OIDC_ISSUER: 'https://login.microsoftonline.com/tenant/v2.0',
      OIDC_CLIENT_ID: 'console',
      OIDC_CLIENT_SECRET: 'secret',
    });
    expect(external.adminEmails).toEqual([]);
    expect(external.staffEmails).toEqual([]);
    expect(loadConfig({ ADMIN_EMAILS: ' Boss@Corp.example , ,x@y.z' }).adminEmails).toEqual([
      'boss@corp.example',
      'x@y.z',
    ]);
  });

  it('trusts forwarded headers only when told to', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.0.0.0/8',
    ]);
    expect(problemsOf({ TRUST_PROXY: 'everyone' })).toEqual([
      'TRUST_PROXY must be true, false, a hop count, or comma-separated proxy addresses',
    ]);
  });

  it('names the variable and the problem for each bad value', () => {
    expect(problemsOf({ PORT: 'eighty' })).toEqual(['PORT must be a port number']);
    expect(problemsOf({ PORT: '70000' })).toEqual(['PORT must be between 0 and 65535']);
    expect(problemsOf({ PUBLIC_URL: 'localhost' })).toEqual([
      'PUBLIC_URL must be an absolute URL such as http://localhost:3000',
    ]);
    expect(problemsOf({ DATABASE_URL: 'mysql://x' })).toEqual([
      'DATABASE_URL must start with postgres:// or postgresql://',
    ]);
    expect(problemsOf({ MIGRATE_ON_START: 'maybe' })).toEqual([
      'MIGRATE_ON_START must be one of true, false, 1, 0, yes, no',
    ]);
    expect(problemsOf({ OIDC_ISSUER: 'https://login.example.com' })).toEqual([
      'OIDC_CLIENT_ID is required when OIDC_ISSUER is set',
      'OIDC_CLIENT_SECRET is required when OIDC_ISSUER is set',
    ]);
  });

  it("takes an https issuer, or http only on this machine, and one Entra ID directory's", () => {
    const issuer = (OIDC_ISSUER: string) =>
      problemsOf({ OIDC_ISSUER, OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 'secret' });
    const httpsOnly =
      'OIDC_ISSUER must be an https:// URL such as https://login.microsoftonline.com/{tenant-id}/v2.0 (http:// only for a loopback address such as http://localhost:8080, in development)';
    expect(issuer('http://login.example.com/tenant/v2.0')).toEqual([httpsOnly]);
    expect(issuer('http://10.0.0.5:8080')).toEqual([httpsOnly]);
    expect(issuer('http://127.0.0.1.example.com')).toEqual([httpsOnly]);
    expect(issuer('ftp://login.example.com')).toEqual([httpsOnly]);
    expect(issuer('https://login.microsoftonline.com/common/v2.0')).toEqual([
      "OIDC_ISSUER must name your directory, as in https://login.microsoftonline.com/{tenant-id}/v2.0: Entra ID's common, organizations and consumers endpoints admit accounts of any directory and publish no single issuer",
    ]);
    expect(issuer('https://login.microsoftonline.com/Organizations/v2.0')).toHaveLength(1);
    for (const loopback of [
      'https://login.microsoftonline.com/x/v2.0',
      'http://localhost:8080',
      'http://127.0.0.1:8080/realm',
      'http://[::1]:8080',
    ]) {
      expect(issuer(loopback)).toEqual([]);
    }
  });

  it('reads the prompt and the allowed Entra directories of an external issuer', () => {
    const external = {
      OIDC_ISSUER: 'https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0',
      OIDC_CLIENT_ID: 'console',
      OIDC_CLIENT_SECRET: 'secret',
    };
    expect(loadConfig(external).oidc).toMatchObject({ prompt: undefined, allowedTenantIds: [] });
    expect(
      loadConfig({
        ...external,
        OIDC_PROMPT: 'select_account',
        OIDC_ALLOWED_TENANT_IDS: ' 72F988BF-86F1-41AF-91AB-2D7CD011DB47 ,,',
      }).oidc,
    ).toMatchObject({
      prompt: 'select_account',
      allowedTenantIds: ['72f988bf-86f1-41af-91ab-2d7cd011db47'],
    });
    expect(problemsOf({ ...external, OIDC_PROMPT: 'none' })).toEqual([
      'OIDC_PROMPT must be login, select_account or consent',
    ]);
    expect(problemsOf({ ...external, OIDC_ALLOWED_TENANT_IDS: 'contoso.onmicrosoft.com' })).toEqual(
      [
        'OIDC_ALLOWED_TENANT_IDS must be a comma-separated list of directory (tenant) ids such as 72f988bf-86f1-41af-91ab-2d7cd011db47',
      ],
    );
    expect(problemsOf({ OIDC_PROMPT: 'login' })).toEqual([
      'OIDC_PROMPT applies to an external issuer only: set OIDC_ISSUER, or leave it unset',
    ]);
  });

  it('refuses the embedded identity provider and database in production', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems.some((p) => p.startsWith('OIDC_ISSUER is required in production'))).toBe(true);
    expect(problems.some((p) => p.startsWith('DATABASE_URL is required in production'))).toBe(true);
  });

  it('runs the event workers with a 500 ms poll and a 30 s lease by default', () => {
    const config = loadConfig({});
    expect(config.eventWorkersEnabled).toBe(true);
    expect(config.eventPollIntervalMs).toBe(500);
    expect(config.eventLeaseSeconds).toBe(30);
    const tuned = loadConfig({
      EVENT_WORKERS_ENABLED: 'false',
      EVENT_POLL_INTERVAL_MS: '250',
      EVENT_LEASE_SECONDS: '5',
    });
    expect(tuned.eventWorkersEnabled).toBe(false);
    expect(tuned.eventPollIntervalMs).toBe(250);
    expect(tuned.eventLeaseSeconds).toBe(5);
    expect(problemsOf({ EVENT_POLL_INTERVAL_MS: '5' })).toEqual([
      'EVENT_POLL_INTERVAL_MS must be between 10 and 60000',
    ]);
    expect(problemsOf({ EVENT_LEASE_SECONDS: '0' })).toEqual([
      'EVENT_LEASE_SECONDS must be between 1 and 3600',
    ]);
    expect(problemsOf({ EVENT_LEASE_SECONDS: 'long' })).toEqual([
      'EVENT_LEASE_SECONDS must be a whole number',
    ]);
    expect(problemsOf({ EVENT_WORKERS_ENABLED: 'on' })).toEqual([
      'EVENT_WORKERS_ENABLED must be one of true, false, 1, 0, yes, no',
    ]);
  });

  it('gives requests in flight 25 s to finish at shutdown unless told otherwise', () => {
    expect(loadConfig({}).shutdownGraceSeconds).toBe(25);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '0' }).shutdownGraceSeconds).toBe(0);
    expect(problemsOf({ SHUTDOWN_GRACE_SECONDS: '3601' })).toEqual([
      'SHUTDOWN_GRACE_SECONDS must be between 0 and 3600',
    ]);
    expect(problemsOf({ SHUTDOWN_GRACE_SECONDS: 'soon' })).toEqual([
      'SHUTDOWN_GRACE_SECONDS must be a whole number',
    ]);
  });

  it('catches mail on 127.0.0.1:19025 in development unless SMTP_URL is set', () => {
    const development = loadConfig({});
    expect(development.smtpCatcherPort).toBe(19025);
    expect(development.smtpUrl).toBe('smtp://127.0.0.1:19025');
    expect(development.smtpFrom).toBe('Administration console <no-reply@localhost>');

    const relay = loadConfig({ SMTP_URL: 'smtps://console:secret@mail.example.com:465' });
    expect(relay.smtpCatcherPort).toBe(0);
    expect(relay.smtpUrl).toBe('smtps://console:secret@mail.example.com:465');

    const noCatcher = loadConfig({ SMTP_CATCHER_PORT: '0' });
    expect(noCatcher.smtpCatcherPort).toBe(0);
    expect(noCatcher.smtpUrl).toBeUndefined();

    // Tests start no catcher unless asked, so parallel suites do not fight over the port.
    expect(loadConfig({ NODE_ENV: 'test' }).smtpCatcherPort).toBe(0);
    const e2e = loadConfig({ NODE_ENV: 'test', SMTP_CATCHER_PORT: '2525' });
    expect(e2e.smtpCatcherPort).toBe(2525);
    expect(e2e.smtpUrl).toBe('smtp://127.0.0.1:2525');

    expect(loadConfig({ SMTP_FROM: 'KYC <kyc@corp.example>' }).smtpFrom).toBe(
      'KYC <kyc@corp.example>',
    );
    for (const bad of ['http://mail.example.com', 'mail.example.com', 'smtp://']) {
      expect(problemsOf({ SMTP_URL: bad })).toEqual([
        'SMTP_URL must be a URL starting with smtp:// or smtps://, e.g. smtp://user:password@mail.example.com:587',
      ]);
    }
    expect(problemsOf({ SMTP_FROM: 'nobody' })).toEqual([
      'SMTP_FROM must be an address such as no-reply@example.com or Console <no-reply@example.com>',
    ]);
    expect(problemsOf({ SMTP_CATCHER_PORT: '99999' })).toEqual([
      'SMTP_CATCHER_PORT must be between 0 and 65535',
    ]);
  });

  it('wants a real mail server in production and no catcher', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://h/db',
      OIDC_ISSUER: 'https://login.example.com',
      OIDC_CLIENT_ID: 'console',
      OIDC_CLIENT_SECRET: 'secret',
    };
    expect(problemsOf(production)).toEqual([
      'SMTP_URL is required in production when EVENT_WORKERS_ENABLED is true: the notifications worker sends invitations through it',
    ]);
    expect(problemsOf({ ...production, EVENT_WORKERS_ENABLED: 'false' })).toEqual([]);
    expect(
      problemsOf({ ...production, SMTP_URL: 'smtp://mail:587', SMTP_CATCHER_PORT: '25' }),
    ).toEqual([
      'SMTP_CATCHER_PORT must be 0 or unset in production: the SMTP catcher keeps mail in memory instead of sending it',
    ]);
    const config = loadConfig({ ...production, SMTP_URL: 'smtp://mail.example.com:587' });
    expect(config.smtpCatcherPort).toBe(0);
    expect(config.smtpUrl).toBe('smtp://mail.example.com:587');
  });

  it('serves no metrics unless a token of 32 characters or a port of their own is given', () => {
    const token = 'a'.repeat(32);
    expect(loadConfig({})).toMatchObject({ metricsToken: undefined, metricsPort: undefined });
    expect(loadConfig({ METRICS_TOKEN: token, METRICS_PORT: '9464' })).toMatchObject({
      metricsToken: token,
      metricsPort: 9464,
    });
    expect(problemsOf({ METRICS_TOKEN: token.slice(1) })).toEqual([
      'METRICS_TOKEN must be at least 32 characters, e.g. from openssl rand -hex 32',
    ]);
    expect(problemsOf({ METRICS_TOKEN: `${token} x` })).toEqual([
      'METRICS_TOKEN must be printable ASCII without spaces',
    ]);
    expect(problemsOf({ METRICS_PORT: '0' })).toEqual(['METRICS_PORT must be between 1 and 65535']);
    expect(problemsOf({ PORT: '9464', METRICS_PORT: '9464' })).toEqual([
      'METRICS_PORT must differ from PORT: the metrics have a listener of their own on 127.0.0.1',
    ]);
  });

  it('puts every problem in the error message', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'loud' })).toThrow(
      /PORT must be a port number[\s\S]*LOG_LEVEL must be one of/,
    );
  });
});
