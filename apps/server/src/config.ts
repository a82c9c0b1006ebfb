import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_POOL_SETTINGS, type PoolSettings } from './db/connection.ts';

/**
 * The server's whole configuration, read from the environment once at start.
 * Every variable is documented in docs/configuration.md; keep the two in step.
 */

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    error: 'must be one of true, false, 1, 0, yes, no',
  })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const emailList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item.length > 0),
);

const absoluteUrl = z.url({ error: 'must be an absolute URL such as http://localhost:3000' });

/**
 * The identity provider's address: https, except on this machine (a development provider), where
 * plain http cannot be read or altered on the way. openid-client refuses any other http issuer at
 * the first sign-in, so it is refused here, at start, with the variable's name.
 */
const issuerUrl = absoluteUrl
  .refine((value) => isHttpsOrLoopback(new URL(value)), {
    error:
      'must be an https:// URL such as https://login.microsoftonline.com/{tenant-id}/v2.0 (http:// only for a loopback address such as http://localhost:8080, in development)',
  })
  .refine((value) => !isMultiTenantEntraIssuer(new URL(value)), {
    error:
      "must name your directory, as in https://login.microsoftonline.com/{tenant-id}/v2.0: Entra ID's common, organizations and consumers endpoints admit accounts of any directory and publish no single issuer",
  });

/** A directory (tenant) id of Microsoft Entra ID: a GUID. */
const ENTRA_TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const tenantIdList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter((item) => item.length > 0),
  )
  .refine((ids) => ids.every((id) => ENTRA_TENANT_ID.test(id)), {
    error:
      'must be a comma-separated list of directory (tenant) ids such as 72f988bf-86f1-41af-91ab-2d7cd011db47',
  });

const positiveInt = z.coerce
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .positive({ error: 'must be greater than 0' });

const port = z.coerce
  .number({ error: 'must be a port number' })
  .int({ error: 'must be a port number' })
  .min(0, { error: 'must be between 0 and 65535' })
  .max(65535, { error: 'must be between 0 and 65535' });

const boundedInt = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be between ${min} and ${max}` })
    .max(max, { error: `must be between ${min} and ${max}` });

/** `data/` at the repository root, whichever directory the server was started from. */
const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../../data', import.meta.url));

const DEMO_ADMIN_EMAILS = ['admin@example.com'];
/** Where the development SMTP catcher listens unless SMTP_CATCHER_PORT says otherwise. */
export const DEFAULT_SMTP_CATCHER_PORT = 19025;
const DEMO_STAFF_EMAILS = ['@example.com'];

const environmentSchema = z
  .object({
    NODE_ENV: z
      .enum(['development', 'production', 'test'], {
        error: 'must be development, production or test',
      })
      .default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: port.default(3000),
    PUBLIC_URL: absoluteUrl.optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: 'must start with postgres:// or postgresql://' })
      .optional(),
    DATA_DIR: z.string().min(1).optional(),
    EMBEDDED_POSTGRES_PORT: port.default(0),
    DATABASE_POOL_MAX: boundedInt(1, 1000).default(DEFAULT_POOL_SETTINGS.max),
    DATABASE_STATEMENT_TIMEOUT_MS: boundedInt(0, 3_600_000).default(
      DEFAULT_POOL_SETTINGS.statementTimeoutMs,
    ),
    DATABASE_CONNECTION_TIMEOUT_MS: boundedInt(100, 600_000).default(
      DEFAULT_POOL_SETTINGS.connectionTimeoutMs,
    ),
    MIGRATE_ON_START: booleanFromEnv.optional(),
    SEED_DEMO_DATA: booleanFromEnv.optional(),
    MIGRATE_ON_START_HOLD_BACK: boundedInt(0, 1000).default(0),
    WEB_DIST_DIR: z.string().min(1).optional(),
    SHUTDOWN_GRACE_SECONDS: boundedInt(0, 3600).default(25),
    OIDC_ISSUER: issuerUrl.optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_SCOPES: z.string().min(1).default('openid profile email'),
    OIDC_PROMPT: z
      .enum(['login', 'select_account', 'consent'], {
        error: 'must be login, select_account or consent',
      })
      .optional(),
    OIDC_ALLOWED_TENANT_IDS: tenantIdList.optional(),
    ADMIN_EMAILS: emailList.optional(),
    STAFF_EMAILS: emailList.optional(),
    SESSION_TTL_SECONDS: positiveInt.default(8 * 60 * 60),
    ACCESS_TOKEN_TTL_SECONDS: positiveInt.default(15 * 60),
    SIGN_IN_RATE_LIMIT_PER_MINUTE: positiveInt.default(30),
    SIGNING_KEY_ROTATION_DAYS: boundedInt(0, 3650).default(30),
    COOKIE_SECURE: booleanFromEnv.optional(),
    TRUST_PROXY: z
      .string()
      .regex(/^(true|false|\d+|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, {
        error: 'must be true, false, a hop count, or comma-separated proxy addresses',
      })
      .optional(),
    EVENT_WORKERS_ENABLED: booleanFromEnv.default(true),
    EVENT_POLL_INTERVAL_MS: boundedInt(10, 60_000).default(500),
    EVENT_LEASE_SECONDS: boundedInt(1, 3600).default(30),
    EVENT_RETENTION_DAYS: boundedInt(1, 36_500).default(90),
    AUDIT_RETENTION_DAYS: boundedInt(1, 36_500).optional(),
    SMTP_URL: z
      .string()
      .refine((value) => /^smtps?:\/\/[^\s/]/i.test(value) && URL.canParse(value), {
        error:
          'must be a URL starting with smtp:// or smtps://, e.g. smtp://user:password@mail.example.com:587',
      })
      .optional(),
    SMTP_FROM: z
      .string()
      .regex(/^[^<>@\s]+@[^<>@\s]+$|^[^<>]*<[^<>@\s]+@[^<>@\s]+>$/, {
        error: 'must be an address such as no-reply@example.com or Console <no-reply@example.com>',
      })
      .optional(),
    SMTP_CATCHER_PORT: port.optional(),
    METRICS_TOKEN: z
      .string()
      .min(32, { error: 'must be at least 32 characters, e.g. from openssl rand -hex 32' })
      .regex(/^[\x21-\x7e]+$/, { error: 'must be printable ASCII without spaces' })
      .optional(),
    METRICS_PORT: boundedInt(1, 65535).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.OIDC_ISSUER && (!env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET)) {
      for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const) {
        if (!env[name]) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'is required when OIDC_ISSUER is set',
          });
        }
      }
    }
    if (!env.OIDC_ISSUER) {
      for (const name of ['OIDC_PROMPT', 'OIDC_ALLOWED_TENANT_IDS'] as const) {
        if (env[name] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'applies to an external issuer only: set OIDC_ISSUER, or leave it unset',
          });
        }
      }
    }
    if (!env.OIDC_ISSUER && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message:
          'is required in production: the embedded identity provider with demo accounts refuses to run when NODE_ENV=production',
      });
    }
    if (!env.DATABASE_URL && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_URL'],
        message:
          'is required in production: the embedded PostgreSQL is for development and demos (docs/operations.md)',
      });
    }
    if (env.NODE_ENV === 'production' && env.MIGRATE_ON_START_HOLD_BACK > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['MIGRATE_ON_START_HOLD_BACK'],
        message: 'must be 0 or unset in production: it is for tests that start behind the schema',
      });
    }
    if (env.NODE_ENV === 'production' && env.SMTP_CATCHER_PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_CATCHER_PORT'],
        message:
          'must be 0 or unset in production: the SMTP catcher keeps mail in memory instead of sending it',
      });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'must differ from PORT: the metrics have a listener of their own on 127.0.0.1',
      });
    }
    if (env.NODE_ENV === 'production' && !env.SMTP_URL && env.EVENT_WORKERS_ENABLED) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message:
          'is required in production when EVENT_WORKERS_ENABLED is true: the notifications worker sends invitations through it',
      });
    }
  });

export type DatabaseConfig = (
  | {
      /** A PostgreSQL the server starts itself (docs/operations.md), cluster in `dataDir`. */
      kind: 'embedded';
      dataDir: string;
      /** 0: any free port on 127.0.0.1. */
      port: number;
    }
  | { kind: 'server'; connectionString: string }
) & { pool: PoolSettings };

/** An OpenID Connect provider of the operator's (Microsoft Entra ID in production). */
export interface ExternalIssuerConfig {
  kind: 'external';
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  /** The `prompt` sent at sign-in (e.g. `select_account`), or none. */
  prompt: 'login' | 'select_account' | 'consent' | undefined;
  /** When not empty, only ID tokens whose `tid` is one of these sign in (Entra directories). */
  allowedTenantIds: string[];
}

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  logLevel: string;
  database: DatabaseConfig;
  /** Apply pending migrations at start (always in embedded mode). */
  migrateOnStart: boolean;
  /**
   * Test only (the end-to-end suite): leave the newest N migrations pending at start, so that
   * the Database Migrations screen starts with something to apply. 0 in production.
   */
  migrationsHeldBack: number;
  /** Seed demo data at start (embedded mode by default). */
  seedDemoData: boolean;
  webDistDir: string | undefined;
  /**
   * On SIGTERM/SIGINT, how long requests in flight may take to finish before their connections
   * are closed (docs/operations.md, "Stopping the console").
   */
  shutdownGraceSeconds: number;
  oidc: ExternalIssuerConfig | { kind: 'embedded' };
  adminEmails: string[];
  /** Full addresses, or domains written as '@example.com'. */
  staffEmails: string[];
  sessionTtlSeconds: number;
  accessTokenTtlSeconds: number;
  signInRateLimitPerMinute: number;
  /** A new signing key after this many days (0: only by the admin command). */
  signingKeyRotationDays: number;
  cookieSecure: boolean;
  /** Which X-Forwarded-* headers to believe (Fastify's trustProxy): off unless behind a proxy. */
  trustProxy: boolean | number | string[];
  /** Run the event workers in this process (false: an API-only instance). See docs/events.md. */
  eventWorkersEnabled: boolean;
  /** How often an idle worker looks for work (it also wakes when an event is recorded). */
  eventPollIntervalMs: number;
  /** How long a claim on an event lasts before another instance may take the event over. */
  eventLeaseSeconds: number;
  /** Processed events older than this many days are deleted (docs/operations.md, "Retention"). */
  eventRetentionDays: number;
  /** Audit rows older than this many days are deleted; undefined: kept forever (the default). */
  auditRetentionDays: number | undefined;
  /** Where mail goes (smtp:// or smtps://); undefined: not configured, sending fails. */
  smtpUrl: string | undefined;
  /** The sender of the console's mail. */
  smtpFrom: string;
  /** Port of the development SMTP catcher on 127.0.0.1; 0: not started. */
  smtpCatcherPort: number;
  /** Bearer token of GET /metrics on the app's port; undefined: no such route. */
  metricsToken: string | undefined;
  /** Port of the metrics listener on 127.0.0.1 (no token); undefined: none. */
  metricsPort: number | undefined;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the environment; throws ConfigError naming each bad variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): AppConfig {
  const present = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`),
    );
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const embeddedDatabase = !env.DATABASE_URL;
  // In development without SMTP_URL the console catches its own mail (docs/events.md).
  const smtpCatcherPort =
    env.SMTP_CATCHER_PORT ??
    (env.NODE_ENV === 'development' && !env.SMTP_URL ? DEFAULT_SMTP_CATCHER_PORT : 0);
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl,
    logLevel: env.LOG_LEVEL,
    database: {
      ...(env.DATABASE_URL
        ? { kind: 'server' as const, connectionString: env.DATABASE_URL }
        : {
            kind: 'embedded' as const,
            dataDir: path.join(path.resolve(env.DATA_DIR ?? DEFAULT_DATA_DIR), 'postgres'),
            port: env.EMBEDDED_POSTGRES_PORT,
          }),
      pool: {
        max: env.DATABASE_POOL_MAX,
        statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
        connectionTimeoutMs: env.DATABASE_CONNECTION_TIMEOUT_MS,
      },
    },
    migrateOnStart: embeddedDatabase || (env.MIGRATE_ON_START ?? false),
    migrationsHeldBack: env.MIGRATE_ON_START_HOLD_BACK,
    seedDemoData: env.SEED_DEMO_DATA ?? embeddedDatabase,
    webDistDir: env.WEB_DIST_DIR,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    oidc: env.OIDC_ISSUER
      ? {
          kind: 'external',
          issuer: env.OIDC_ISSUER,
          clientId: env.OIDC_CLIENT_ID ?? '',
          clientSecret: env.OIDC_CLIENT_SECRET ?? '',
          scopes: env.OIDC_SCOPES,
          prompt: env.OIDC_PROMPT,
          allowedTenantIds: env.OIDC_ALLOWED_TENANT_IDS ?? [],
        }
      : { kind: 'embedded' },
    // The demo accounts' roles are defaults only with the embedded identity provider; with a real
    // issuer nobody is admin or staff until the operator says so.
    adminEmails: env.ADMIN_EMAILS ?? (env.OIDC_ISSUER ? [] : DEMO_ADMIN_EMAILS),
    staffEmails: env.STAFF_EMAILS ?? (env.OIDC_ISSUER ? [] : DEMO_STAFF_EMAILS),
    sessionTtlSeconds: env.SESSION_TTL_SECONDS,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    signInRateLimitPerMinute: env.SIGN_IN_RATE_LIMIT_PER_MINUTE,
    signingKeyRotationDays: env.SIGNING_KEY_ROTATION_DAYS,
    cookieSecure: env.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    eventWorkersEnabled: env.EVENT_WORKERS_ENABLED,
    eventPollIntervalMs: env.EVENT_POLL_INTERVAL_MS,
    eventLeaseSeconds: env.EVENT_LEASE_SECONDS,
    eventRetentionDays: env.EVENT_RETENTION_DAYS,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    smtpUrl:
      env.SMTP_URL ?? (smtpCatcherPort > 0 ? `smtp://127.0.0.1:${smtpCatcherPort}` : undefined),
    smtpFrom: env.SMTP_FROM ?? `Administration console <no-reply@${new URL(publicUrl).hostname}>`,
    smtpCatcherPort,
    metricsToken: env.METRICS_TOKEN,
    metricsPort: env.METRICS_PORT,
  };
}

/** https, or http to this machine (localhost, 127.0.0.0/8, ::1). */
export function isHttpsOrLoopback(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  const host = url.hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Entra ID's endpoints for accounts of any directory, rather than one tenant's. */
function isMultiTenantEntraIssuer(url: URL): boolean {
  const directory = url.pathname.split('/')[1]?.toLowerCase();
  return (
    url.hostname === 'login.microsoftonline.com' &&
    ['common', 'organizations', 'consumers'].includes(directory ?? '')
  );
}

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((address) => address.trim());
}
