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
    expect(config.database).toEqual({ kind: 'pglite', dataDir: './data' });
    expect(config.migrateOnStart).toBe(true);
    expect(config.seedDemoData).toBe(true);
    expect(config.oidc).toEqual({ kind: 'embedded' });
    expect(config.adminEmails).toEqual(['admin@example.com']);
  });

  it('uses PostgreSQL without migrating or seeding unless asked', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/console' });
    expect(config.database.kind).toBe('postgres');
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

  it('refuses the embedded identity provider and database in production', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems.some((p) => p.startsWith('OIDC_ISSUER is required in production'))).toBe(true);
    expect(problems.some((p) => p.startsWith('DATABASE_URL is required in production'))).toBe(true);
  });

  it('puts every problem in the error message', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'loud' })).toThrow(
      /PORT must be a port number[\s\S]*LOG_LEVEL must be one of/,
    );
  });
});
