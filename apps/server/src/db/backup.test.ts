import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stamp } from '../../test/callers.ts';
import { sequenceValues, tableChecksums } from '../../test/database-snapshot.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { sql } from 'kysely';
import { eventually } from '../outbox/test-support.ts';
import { recordEvent } from '../outbox/outbox.ts';
import { writeBackup, restoreIntoNewCluster } from './backup.ts';
import { openDatabase, type DatabaseHandle } from './connection.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';
import { migrateTo } from './migrator.ts';
import { seedDemoData } from './seed/demo.ts';
import { seedScale } from './seed/scale.ts';

const SERVER_ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface CommandResult {
  code: number | null;
  stdout: string[];
  stderr: string[];
}

/** `npm run backup` / `npm run restore` as an operator runs them (the CLI entry, through tsx). */
async function run(
  command: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<CommandResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', `src/db/cli/${command}.ts`, ...args], {
    cwd: SERVER_ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [stdout, stderr] = [linesOf(child.stdout), linesOf(child.stderr)];
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout: await stdout, stderr: await stderr };
}

async function linesOf(stream: ChildProcess['stdout']): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: stream! })) lines.push(line);
  return lines;
}

/** Compares what matters of a database: every table (rows and checksum) and the sequences. */
async function contentsOf(db: DatabaseHandle['db']) {
  return { tables: await tableChecksums(db), sequences: await sequenceValues(db) };
}

// Each test runs the CLIs as separate processes (up to ten, each loading tsx): on a busy
// 2-core machine that outlasts the suite's 30 s default.
describe('npm run backup and npm run restore', { timeout: 120_000 }, () => {
  let source: DatabaseHandle;
  let root: string;
  let backup: string;

  beforeAll(async () => {
    source = await createTestDatabase();
    root = await mkdtemp(path.join(tmpdir(), 'console-backup-test-'));
    backup = path.join(root, 'console.backup');
    await seedDemoData(source.db);
    await seedScale(source.db, 50);
    // Identity columns that PostgreSQL always generates (COPY writes them as they were).
    await source.db
      .insertInto('fatf_imports')
      .values({ options: '{}', record_count: 0, created_by: 'test' })
      .execute();
    // Text that COPY must escape, and characters beyond ASCII.
    await source.db
      .insertInto('tenants')
      .values({
        company_name: 'Tab\there, new\nline, back\\slash, \\. alone, \r, ☃ and 😀',
        domicile_country_id: (
          await source.db.selectFrom('countries').select('id').executeTakeFirstOrThrow()
        ).id,
        ...stamp,
      })
      .execute();
  });
  afterAll(async () => {
    await source?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('round-trips a seeded database: every table and every sequence the same', async () => {
    const backedUp = await run('backup', [backup], { DATABASE_URL: source.connectionString });
    expect(backedUp.stderr).toEqual([]);
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Backup of PostgreSQL .* \\(schema version \\d+\\): \\d+ tables, \\d+ rows in ${backup} \\(\\d+ kB\\)$`,
        ),
      ),
    ]);
    expect((await stat(backup)).mode & 0o777).toBe(0o600);
    // Nothing but the file is left beside it.
    expect(await readdir(root)).toEqual(['console.backup']);

    const restoredDataDir = path.join(root, 'restored');
    const restored = await run('restore', [backup, '--data-dir', restoredDataDir], {});
    expect(restored.stderr).toEqual([]);
    expect(restored.code).toBe(0);
    const clusterDir = path.join(restoredDataDir, 'postgres');
    expect(restored.stdout).toEqual([
      expect.stringMatching(`^Restored ${backup} into ${clusterDir} \\(schema version \\d+\\)`),
      `Start the console on it: DATA_DIR=${restoredDataDir} npm start`,
    ]);

    const cluster = await startEmbeddedPostgres({ dataDir: clusterDir, port: 0 });
    const copy = openDatabase(cluster.connectionString());
    try {
      const [original, restoredContents] = [await contentsOf(source.db), await contentsOf(copy.db)];
      expect(Object.keys(original.tables).length).toBeGreaterThan(20);
      expect(original.tables.entities?.rows).toBeGreaterThan(50);
      expect(original.tables.fatf_imports?.rows).toBe(1);
      expect(restoredContents).toEqual(original);
    } finally {
      await copy.close();
      await cluster.stop();
    }
  });

  it('backs up the embedded database while a console runs on it, and never restores over it', async () => {
    const dataDir = path.join(root, 'live');
    const clusterDir = path.join(dataDir, 'postgres');
    // A console-like process holding its cluster, as `npm start` would.
    const holder = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/embedded-postgres-holder.ts', clusterDir],
      { cwd: SERVER_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const url = new URL(
        await new Promise<string>((resolve) =>
          createInterface({ input: holder.stdout! }).once('line', resolve),
        ),
      );
      const running = openDatabase(url.toString());
      try {
        await migrateTo(running.db);
      } finally {
        await running.close();
      }
      const live = path.join(root, 'live.backup');
      const backedUp = await run('backup', [live], { DATA_DIR: dataDir });
      expect(backedUp.stderr).toEqual([]);
      expect(backedUp.code).toBe(0);
      // The holder's PostgreSQL, not one started for the command.
      expect(backedUp.stdout[0]).toContain(`Backup of PostgreSQL 127.0.0.1:${url.port}/console `);

      const again = await run('restore', [live, '--data-dir', dataDir], {});
      expect(again).toEqual({
        code: 1,
        stdout: [],
        stderr: [
          `${clusterDir} is not empty: a restore only creates a new cluster. Choose a new directory with --data-dir.`,
        ],
      });
      // Without --data-dir: DATA_DIR, the same cluster.
      const intoDataDir = await run('restore', [live], { DATA_DIR: dataDir });
      expect(intoDataDir.code).toBe(1);
      expect(intoDataDir.stderr).toEqual(again.stderr);
    } finally {
      holder.kill('SIGTERM');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
  });

  it('is one snapshot: what a transaction writes while it runs is in the backup whole or not at all', async () => {
    const country = await source.db.selectFrom('countries').select('id').executeTakeFirstOrThrow();
    // Each transaction writes a tenant and its event: two tables the backup copies at different
    // moments (events before tenants), so a backup that is not one snapshot catches some pairs
    // halfway.
    let writing = true;
    let pairs = 0;
    const writer = (async () => {
      while (writing) {
        const name = `Snapshot pair ${pairs}`;
        await source.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('tenants')
            .values({ company_name: name, domicile_country_id: country.id, ...stamp })
            .execute();
          await recordEvent(trx, { eventName: 'SnapshotPair', metadata: { name } });
        });
        pairs += 1;
      }
    })();
    const file = path.join(root, 'while-writing.backup');
    try {
      await eventually(async () => pairs >= 20, 10_000, 'the writer to start');
      await writeBackup(source.connectionString, file);
    } finally {
      writing = false;
      await writer;
    }
    const clusterDir = path.join(root, 'while-writing', 'postgres');
    await restoreIntoNewCluster(file, clusterDir);
    const cluster = await startEmbeddedPostgres({ dataDir: clusterDir, port: 0 });
    const copy = openDatabase(cluster.connectionString());
    try {
      const tenants = await copy.db
        .selectFrom('tenants')
        .select('company_name')
        .where('company_name', 'like', 'Snapshot pair %')
        .execute();
      const events = await copy.db
        .selectFrom('events')
        .select(sql<string>`metadata->>'name'`.as('name'))
        .where('event_name', '=', 'SnapshotPair')
        .execute();
      expect(tenants.length).toBeGreaterThanOrEqual(20);
      expect(events.map((event) => event.name).sort()).toEqual(
        tenants.map((tenant) => tenant.company_name).sort(),
      );
    } finally {
      await copy.close();
      await cluster.stop();
    }
  });

  it('refuses, in one line, to overwrite a file unless told to, and files that are no backup', async () => {
    const env = { DATABASE_URL: source.connectionString };
    const backup = path.join(root, 'twice.backup');
    expect((await run('backup', [backup], env)).code).toBe(0);
    expect(await run('backup', [backup], env)).toEqual({
      code: 1,
      stdout: [],
      stderr: [`${backup} exists: choose another file, or add --force to replace it.`],
    });
    expect((await run('backup', [backup, '--force'], env)).code).toBe(0);

    const notABackup = path.join(root, 'notes.txt');
    await writeFile(notABackup, 'not a backup');
    const cut = path.join(root, 'cut.backup');
    await writeFile(cut, (await readFile(backup)).subarray(0, 2_000));
    const emptied = path.join(root, 'empty.backup');
    await writeFile(emptied, '');
    const fresh = path.join(root, 'fresh');
    for (const [file, message] of [
      [notABackup, `${notABackup} is not a console backup (npm run backup writes them).`],
      [cut, `${cut} is incomplete (cut short?): nothing was restored.`],
      [emptied, `${emptied} is not a console backup (npm run backup writes them).`],
      [path.join(root, 'missing.backup'), `${path.join(root, 'missing.backup')} does not exist.`],
    ] as const) {
      expect(await run('restore', [file, '--data-dir', fresh], {})).toEqual({
        code: 1,
        stdout: [],
        stderr: [message],
      });
      // Nothing half-restored is left behind.
      await expect(readdir(path.join(fresh, 'postgres'))).rejects.toThrow(/ENOENT/);
    }
    expect(await run('backup', [], env)).toMatchObject({
      code: 1,
      stderr: ['Usage: npm run backup -- FILE [--force]'],
    });
    expect(await run('restore', [backup, '--into', fresh], {})).toMatchObject({ code: 1 });
  });
});
