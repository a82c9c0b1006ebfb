import { createReadStream, createWriteStream } from 'node:fs';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { openDatabase } from './connection.ts';
import { copyFromStdin } from './copy.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresOptions } from './embedded-postgres.ts';
import { migrations } from './migrations/index.ts';
import { migrateTo } from './migrator.ts';

/**
 * Backups of the console's database (docs/operations.md, "Backups"): every table of the public
 * schema, its rows as PostgreSQL's COPY text, read in one snapshot, gzipped into one file.
 *
 * Why not pg_dump: the embedded-postgres package ships initdb, pg_ctl and postgres only (its
 * binaries leave the client tools out on purpose), and a pg_dump older than the server refuses
 * to dump it (Debian 12 has 15; the embedded server is 18). The schema is the migrations', so a
 * backup holds the data and the schema version it belongs to; a restore migrates a new cluster
 * to that version and loads the rows.
 *
 * The file, gzipped text: a header line (JSON), then per table a line naming it and its columns,
 * its COPY rows (a row never spans lines: COPY escapes newlines) and `\.` (a line no row can be:
 * COPY escapes the backslash), then a line with the sequences and a last line counting the rows,
 * which tells a complete file from a cut one.
 */

const BACKUP_FORMAT = 'kyc-console-backup';
const FORMAT_VERSION = 1;
const END_OF_ROWS = '\\.';
/** How both sessions write and read values, whatever the server's defaults (as pg_dump sets them). */
const SESSION_SETTINGS =
  "set client_encoding = 'UTF8'; set datestyle = 'ISO'; set intervalstyle = 'postgres'; set extra_float_digits = 3";

/** A problem the operator can fix, told in one line (the command prints it and exits 1). */
export class BackupError extends Error {
  override name = 'BackupError';
}

interface Header {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  schemaVersion: number;
  createdAt: string;
}

interface TableStart {
  table: string;
  columns: string[];
}

interface Sequence {
  name: string;
  lastValue: string;
  isCalled: boolean;
}

interface Trailer {
  rows: Record<string, number>;
}

export interface BackupSummary {
  schemaVersion: number;
  tables: number;
  rows: number;
}

/**
 * Writes a backup of `connectionString`'s database to `file`: to a temporary file beside it,
 * renamed into place once complete (mode 0600: the rows hold sessions and signing keys). An
 * existing file is refused unless `overwrite`.
 */
export async function writeBackup(
  connectionString: string,
  file: string,
  { overwrite = false }: { overwrite?: boolean } = {},
): Promise<BackupSummary> {
  if (!overwrite && (await exists(file))) {
    throw new BackupError(`${file} exists: choose another file, or add --force to replace it.`);
  }
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    await client.query(SESSION_SETTINGS);
    // One snapshot for every table, as pg_dump takes it; the locks keep DDL (a migration) out
    // until the end, without holding up reads or writes.
    await client.query('begin isolation level repeatable read, read only');
    const tables = await tablesOf(client);
    if (tables.length > 0) {
      await client.query(
        `lock table ${tables.map((t) => t.quoted).join(', ')} in access share mode`,
      );
    }
    const summary: BackupSummary = {
      schemaVersion: await schemaVersionOf(client),
      tables: tables.length,
      rows: 0,
    };
    await pipeline(
      backupLines(client, tables, summary),
      createGzip(),
      createWriteStream(temporary, { flags: 'wx', mode: 0o600 }),
    );
    await client.query('commit');
    await syncToDisk(temporary);
    await rename(temporary, file);
    return summary;
  } catch (error) {
    await rm(temporary, { force: true });
    throw writeFailure(file, temporary, error);
  } finally {
    await client.end();
  }
}

/** The file's bytes on the disk before it is renamed into place. */
async function syncToDisk(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A file that cannot be written (no such directory, no permission, disk full) is told in one line. */
function writeFailure(file: string, temporary: string, error: unknown): unknown {
  const { code, path: failedPath } = error as NodeJS.ErrnoException;
  return failedPath === temporary ? new BackupError(`Cannot write ${file}: ${code}.`) : error;
}

interface Table {
  name: string;
  quoted: string;
  columns: string[];
}

/** The tables of the public schema and their columns, generated ones aside (PostgreSQL computes them). */
async function tablesOf(client: pg.Client): Promise<Table[]> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(`
    select c.relname as name,
      array_agg(a.attname::text order by a.attnum) filter (where a.attnum > 0) as columns
    from pg_class c
    join pg_attribute a on a.attrelid = c.oid and not a.attisdropped and a.attgenerated = ''
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
    group by c.relname
    order by c.relname
  `);
  return rows.map((row) => ({
    name: row.name,
    quoted: `public.${client.escapeIdentifier(row.name)}`,
    columns: row.columns,
  }));
}

async function schemaVersionOf(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>(
    'select max(version)::int as version from schema_migrations',
  );
  return rows[0]?.version ?? 0;
}

async function* backupLines(
  client: pg.Client,
  tables: readonly Table[],
  summary: BackupSummary,
): AsyncGenerator<string | Buffer> {
  const header: Header = {
    format: BACKUP_FORMAT,
    formatVersion: FORMAT_VERSION,
    schemaVersion: summary.schemaVersion,
    createdAt: new Date().toISOString(),
  };
  yield `${JSON.stringify(header)}\n`;
  const trailer: Trailer = { rows: {} };
  for (const table of tables) {
    const start: TableStart = { table: table.name, columns: table.columns };
    yield `${JSON.stringify(start)}\n`;
    const rows = client.query(
      copyTo(`copy ${table.quoted} (${columnList(client, table.columns)}) to stdout`),
    );
    for await (const chunk of rows) yield chunk as Buffer;
    yield `${END_OF_ROWS}\n`;
    trailer.rows[table.name] = rows.rowCount;
    summary.rows += rows.rowCount;
  }
  // Read last: a sequence is not part of the snapshot, so it may be ahead of the rows, never
  // behind them.
  yield `${JSON.stringify({ sequences: await sequencesOf(client) })}\n`;
  yield `${JSON.stringify(trailer)}\n`;
}

function columnList(client: pg.Client, columns: readonly string[]): string {
  return columns.map((column) => client.escapeIdentifier(column)).join(', ');
}

async function sequencesOf(client: pg.Client): Promise<Sequence[]> {
  const { rows } = await client.query<{ name: string }>(
    `select relname as name from pg_class
     where relnamespace = 'public'::regnamespace and relkind = 'S' order by relname`,
  );
  const sequences: Sequence[] = [];
  for (const { name } of rows) {
    const state = await client.query<{ last_value: string; is_called: boolean }>(
      `select last_value::text, is_called from public.${client.escapeIdentifier(name)}`,
    );
    const row = state.rows[0];
    if (row) sequences.push({ name, lastValue: row.last_value, isCalled: row.is_called });
  }
  return sequences;
}

/**
 * Restores backup `file` into a new embedded cluster in `clusterDir` (initdb, migrations up to
 * the backup's schema version, the rows), and stops it again. Refuses a directory that holds
 * anything: a restore never overwrites a cluster, live or not. On failure the new cluster goes.
 */
export async function restoreIntoNewCluster(
  file: string,
  clusterDir: string,
  log: EmbeddedPostgresOptions['log'] = () => {},
): Promise<BackupSummary> {
  const { schemaVersion } = await readBackupHeader(file);
  const latest = migrations.at(-1)?.version ?? 0;
  if (schemaVersion > latest) {
    throw new BackupError(
      `${file} is a backup of schema version ${schemaVersion}, newer than this console's ${latest}: restore it with the console that made it, or a newer one.`,
    );
  }
  if (await holdsAnything(clusterDir)) {
    throw new BackupError(
      `${clusterDir} is not empty: a restore only creates a new cluster. Choose a new directory with --data-dir.`,
    );
  }
  const embedded = await startEmbeddedPostgres({ dataDir: clusterDir, port: 0, log });
  let summary: BackupSummary;
  try {
    const database = openDatabase(embedded.connectionString());
    try {
      await migrateTo(database.db, schemaVersion);
    } finally {
      await database.close();
    }
    summary = await loadBackup(embedded.connectionString(), file);
  } catch (error) {
    await embedded.stop();
    await rm(clusterDir, { recursive: true, force: true });
    throw error;
  }
  await embedded.stop();
  return summary;
}

/** What a restore needs before it loads the rows: the schema version to migrate to. */
async function readBackupHeader(file: string): Promise<Header> {
  const lines = backupFileLines(file);
  try {
    const { value } = await lines.next();
    return parseHeader(file, value);
  } finally {
    await lines.return(undefined);
  }
}

/**
 * Loads the rows of backup `file` into `connectionString`'s database, whose schema is at the
 * backup's version: one transaction that empties every table and fills it again, triggers and
 * foreign keys off meanwhile (the rows are a consistent whole already), then the sequences.
 */
async function loadBackup(connectionString: string, file: string): Promise<BackupSummary> {
  const lines = backupFileLines(file);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const header = parseHeader(file, (await lines.next()).value);
    await client.query(SESSION_SETTINGS);
    await client.query('begin');
    // As pg_dump --disable-triggers: no audit, counter or foreign-key trigger fires.
    await client.query('set local session_replication_role = replica');
    const tables = await tablesOf(client);
    if (tables.length > 0) {
      await client.query(`truncate ${tables.map((t) => t.quoted).join(', ')}`);
    }
    const loaded: Record<string, number> = {};
    for (;;) {
      const { value: line, done } = await lines.next();
      if (done) throw incomplete(file);
      const record = parseLine<Partial<TableStart & { sequences: Sequence[] }>>(file, line);
      if (record.sequences) {
        await setSequences(client, record.sequences);
        break;
      }
      if (!record.table || !record.columns) throw notABackup(file);
      loaded[record.table] = await loadTable(client, file, record as TableStart, lines);
    }
    const { value: last, done } = await lines.next();
    if (done) throw incomplete(file);
    const trailer = parseLine<Trailer>(file, last);
    for (const [table, rows] of Object.entries(trailer.rows)) {
      if (loaded[table] !== rows) throw incomplete(file);
    }
    await client.query('commit');
    return {
      schemaVersion: header.schemaVersion,
      tables: Object.keys(loaded).length,
      rows: Object.values(loaded).reduce((sum, rows) => sum + rows, 0),
    };
  } finally {
    await lines.return(undefined);
    await client.end();
  }
}

async function loadTable(
  client: pg.Client,
  file: string,
  { table, columns }: TableStart,
  lines: AsyncGenerator<string>,
): Promise<number> {
  return copyFromStdin(
    client,
    `copy public.${client.escapeIdentifier(table)} (${columnList(client, columns)}) from stdin`,
    rowsOfTable(file, lines),
  );
}

/** The COPY rows of one table of the file, up to its end line; a file that ends before is cut. */
async function* rowsOfTable(file: string, lines: AsyncGenerator<string>): AsyncGenerator<string> {
  for (;;) {
    const { value: line, done } = await lines.next();
    if (done) throw incomplete(file);
    if (line === END_OF_ROWS) return;
    yield `${line}\n`;
  }
}

async function setSequences(client: pg.Client, sequences: readonly Sequence[]): Promise<void> {
  for (const sequence of sequences) {
    await client.query('select setval($1::regclass, $2::bigint, $3)', [
      `public.${client.escapeIdentifier(sequence.name)}`,
      sequence.lastValue,
      sequence.isCalled,
    ]);
  }
}

/** The lines of a backup file; a file that is not gzip is told as not a backup. */
async function* backupFileLines(file: string): AsyncGenerator<string> {
  const gunzip = createGunzip();
  const input = createReadStream(file).on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  let lines = 0;
  try {
    for await (const line of createInterface({ input: gunzip, crlfDelay: Infinity })) {
      lines += 1;
      yield line;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new BackupError(`${file} does not exist.`);
    if (code === 'Z_DATA_ERROR') throw notABackup(file);
    // The gzip stream ends early: an empty file, or one cut short.
    if (code === 'Z_BUF_ERROR') throw lines === 0 ? notABackup(file) : incomplete(file);
    throw error;
  } finally {
    // A reader that stops early (the header only) leaves nothing that could still fail.
    input.destroy();
    gunzip.destroy();
  }
}

function parseHeader(file: string, line: string | undefined): Header {
  const header = parseLine<Partial<Header>>(file, line);
  if (header.format !== BACKUP_FORMAT || typeof header.schemaVersion !== 'number') {
    throw notABackup(file);
  }
  if (header.formatVersion !== FORMAT_VERSION) {
    throw new BackupError(
      `${file} is a backup of format ${header.formatVersion}; this console reads format ${FORMAT_VERSION}.`,
    );
  }
  return header as Header;
}

function parseLine<T>(file: string, line: string | undefined): T {
  try {
    return JSON.parse(line ?? '') as T;
  } catch {
    throw notABackup(file);
  }
}

function notABackup(file: string): BackupError {
  return new BackupError(`${file} is not a console backup (npm run backup writes them).`);
}

function incomplete(file: string): BackupError {
  return new BackupError(`${file} is incomplete (cut short?): nothing was restored.`);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
}

async function holdsAnything(directory: string): Promise<boolean> {
  const entries = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR') return [directory];
    throw error;
  });
  return entries.length > 0;
}
