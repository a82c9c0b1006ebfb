import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import type { Database } from './schema.ts';
import { PGliteDialect } from './pglite-dialect.ts';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseConfig['kind'];
  /** A name for the Database Migrations screen and logs; never includes credentials. */
  displayName: string;
  close(): Promise<void>;
}

// int8 (count(*), bigserial) arrives as a string from pg and a number from PGlite: make both numbers
// here, once. Our counts and ids stay far below 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export async function openDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  return config.kind === 'postgres'
    ? openPostgres(config.connectionString)
    : openPGlite(config.dataDir);
}

function openPostgres(connectionString: string): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, types: pgTypes, max: 20 });
  // An idle connection the server terminates (restart, failover, admin kill) emits 'error' on
  // the pool; without a listener that would crash the process. The pool replaces the connection.
  pool.on('error', (error) => {
    console.error(`PostgreSQL connection lost: ${error.message}`);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const url = new URL(connectionString);
  return {
    db,
    kind: 'postgres',
    displayName: `PostgreSQL ${url.hostname}:${url.port || '5432'}${url.pathname}`,
    close: () => db.destroy(),
  };
}

async function openPGlite(dataDir: string): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const inMemory = dataDir.startsWith('memory://');
  let lock: FileHandle | undefined;
  let lockPath: string | undefined;
  if (!inMemory) {
    await mkdir(dataDir, { recursive: true });
    lockPath = path.join(dataDir, '..', `${path.basename(dataDir)}.lock`);
    lock = await takeDirectoryLock(lockPath, dataDir);
  }
  const pglite = new PGlite(inMemory ? undefined : dataDir);
  await pglite.waitReady;
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    displayName: inMemory ? 'PGlite (in memory)' : `PGlite ${path.resolve(dataDir)}`,
    close: async () => {
      await db.destroy();
      await pglite.close();
      await lock?.close();
      if (lockPath) await rm(lockPath, { force: true });
    },
  };
}

/** Two processes must never open one PGlite directory: the second one stops with a clear error. */
async function takeDirectoryLock(lockPath: string, dataDir: string): Promise<FileHandle> {
  try {
    const handle = await open(lockPath, 'wx');
    await handle.write(String(process.pid));
    return handle;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const { readFile } = await import('node:fs/promises');
    const owner = Number(await readFile(lockPath, 'utf8').catch(() => ''));
    if (owner && isAlive(owner)) {
      throw new Error(
        `The embedded database ${dataDir} is in use by process ${owner}. Stop it, or set DATA_DIR to another directory.`,
      );
    }
    // A stale lock from a process that died: take it over.
    await rm(lockPath, { force: true });
    return takeDirectoryLock(lockPath, dataDir);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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
