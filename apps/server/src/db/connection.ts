import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { namingPool } from './prepared-statements.ts';
import type { Database } from './schema.ts';

export interface PoolSettings {
  /** Most connections this process opens. */
  max: number;
  /** Longest a statement may run before PostgreSQL cancels it (0: no limit). */
  statementTimeoutMs: number;
  /** Longest a query waits for a free connection before failing (saturation answers 503). */
  connectionTimeoutMs: number;
}

export const DEFAULT_POOL_SETTINGS: PoolSettings = {
  max: 20,
  statementTimeoutMs: 30_000,
  connectionTimeoutMs: 5_000,
};

/** The pool's connections at one moment (the metrics read them when scraped). */
export interface PoolStats {
  /** Connections open, idle or in use. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** Most connections the pool opens. */
  max: number;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  /** postgres://… of this database (LISTEN connections, child processes in tests). */
  connectionString: string;
  /**
   * `PostgreSQL host:port/database` (and the data directory when embedded), for the server's log
   * and command-line tools; never credentials. Never answered to a browser: the Database
   * Migrations screen shows `databaseName` and `embedded` only.
   */
  displayName: string;
  /** The database's name (the connection string's path). */
  databaseName: string;
  /** True for the embedded PostgreSQL the server started itself (db/open.ts). */
  embedded: boolean;
  poolStats(): PoolStats;
  close(): Promise<void>;
}

// int8 (count(*), bigserial) arrives from pg as a string: make it a number here, once. Our counts
// and ids stay far below 2^53. A date stays its YYYY-MM-DD text: pg would make it a Date at local
// midnight, another day in another time zone.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    if (oid === pg.types.builtins.DATE) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * One pg pool behind Kysely: the only way the server talks to PostgreSQL (embedded or not). The
 * few statements registered in prepared-statements.ts are sent as named prepared statements.
 */
export function openDatabase(
  connectionString: string,
  settings: PoolSettings = DEFAULT_POOL_SETTINGS,
): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString,
    types: pgTypes,
    max: settings.max,
    connectionTimeoutMillis: settings.connectionTimeoutMs,
    ...(settings.statementTimeoutMs > 0 ? { statement_timeout: settings.statementTimeoutMs } : {}),
  });
  // An idle connection the server terminates (restart, failover, admin kill) emits 'error' on
  // the pool; without a listener that would crash the process. The pool replaces the connection.
  pool.on('error', (error) => {
    console.error(`PostgreSQL connection lost: ${error.message}`);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: namingPool(pool) }) });
  return {
    db,
    connectionString,
    displayName: describeConnection(connectionString),
    databaseName: decodeURIComponent(new URL(connectionString).pathname.slice(1)),
    embedded: false,
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: settings.max,
    }),
    close: () => db.destroy(),
  };
}

/** `PostgreSQL host:port/database`, without user or password. */
export function describeConnection(connectionString: string): string {
  const url = new URL(connectionString);
  return `PostgreSQL ${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

/** For /readyz: true when a trivial query answers. */
export async function isDatabaseReachable(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
