import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EmbeddedPostgresError,
  runningEmbeddedPostgres,
  startEmbeddedPostgres,
} from './embedded-postgres.ts';

const SERVER_ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function query(connectionString: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Another process holding the cluster, as a second console server would. */
async function holder(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/embedded-postgres-holder.ts', dataDir],
    { cwd: SERVER_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
  return { child, url };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Alive and not a zombie (a killed process nobody reaped still answers signals). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function postmasterPid(dataDir: string): Promise<number> {
  return readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').then((text) =>
    Number(text.split('\n')[0]),
  );
}

describe('embedded PostgreSQL', () => {
  let root: string;
  let dataDir: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'console-embedded-test-'));
    dataDir = path.join(root, 'postgres');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates a cluster on first start, with a generated password kept 0600 in it', async () => {
    const embedded = await startEmbeddedPostgres({ dataDir, port: 0, initdbNoSync: true });
    try {
      const url = new URL(embedded.connectionString());
      expect(url.hostname).toBe('127.0.0.1');
      expect(url.pathname).toBe('/console');
      const passwordFile = path.join(dataDir, 'console.password');
      expect((await readFile(passwordFile, 'utf8')).trim()).toBe(decodeURIComponent(url.password));
      expect(url.password.length).toBeGreaterThanOrEqual(24);
      expect((await stat(passwordFile)).mode & 0o777).toBe(0o600);
      await query(embedded.connectionString(), 'create table kept (value text)');
      await query(embedded.connectionString(), "insert into kept values ('first start')");
      // Reachable on 127.0.0.1 only, and only with the password.
      const wrong = new URL(embedded.connectionString());
      wrong.password = 'not-the-password';
      await expect(query(wrong.toString(), 'select 1')).rejects.toThrow(/password/);
      // What `npm run migrate` beside a running server connects to.
      expect(await runningEmbeddedPostgres(dataDir)).toBe(embedded.connectionString());
    } finally {
      await embedded.stop();
    }
  });

  it('keeps the data across a clean stop and start', async () => {
    const embedded = await startEmbeddedPostgres({ dataDir, port: 0 });
    try {
      expect(await query(embedded.connectionString(), 'select value from kept')).toEqual([
        { value: 'first start' },
      ]);
    } finally {
      await embedded.stop();
    }
    await expect(stat(`${dataDir}.lock`)).rejects.toThrow(/ENOENT/);
  });

  it('recovers after PostgreSQL itself was killed (stale postmaster.pid)', async () => {
    const embedded = await startEmbeddedPostgres({ dataDir, port: 0 });
    const pid = await postmasterPid(dataDir);
    await query(embedded.connectionString(), "insert into kept values ('before the crash')");
    process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The crashed server left its postmaster.pid behind.
    expect(await postmasterPid(dataDir)).toBe(pid);
    await embedded.stop();

    const again = await startEmbeddedPostgres({ dataDir, port: 0 });
    try {
      const rows = await query(again.connectionString(), 'select value from kept order by value');
      expect(rows.map((row) => row.value)).toEqual(['before the crash', 'first start']);
    } finally {
      await again.stop();
    }
  });

  it('refuses a second console server on the same directory, and takes over after a SIGKILL', async () => {
    const first = await holder(dataDir);
    try {
      expect(await runningEmbeddedPostgres(dataDir)).toBe(first.url);
      await query(first.url, "insert into kept values ('held by another process')");
      const second = startEmbeddedPostgres({ dataDir, port: 0 });
      await expect(second).rejects.toThrow(EmbeddedPostgresError);
      await expect(second).rejects.toThrow(
        `Embedded PostgreSQL ${dataDir} is in use by another console server (process ${first.child.pid}): stop it, or set DATA_DIR to another directory.`,
      );
    } finally {
      // A crash of the console server: its PostgreSQL is left running, orphaned.
      first.child.kill('SIGKILL');
      await exited(first.child);
    }
    const orphan = await postmasterPid(dataDir);
    expect(isRunning(orphan)).toBe(true);

    const restarted = await startEmbeddedPostgres({ dataDir, port: 0 });
    try {
      expect(isRunning(orphan)).toBe(false);
      const rows = await query(restarted.connectionString(), 'select count(*)::int as n from kept');
      expect(rows).toEqual([{ n: 3 }]);
    } finally {
      await restarted.stop();
    }
  });

  it('says in one line that a configured port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const start = startEmbeddedPostgres({ dataDir, port });
      await expect(start).rejects.toThrow(
        `Embedded PostgreSQL cannot listen on 127.0.0.1:${port}: the port is in use. Set EMBEDDED_POSTGRES_PORT to a free port, or 0 for any free port.`,
      );
    } finally {
      blocker.close();
    }
    // Nothing left behind: the directory is free for the next start.
    const embedded = await startEmbeddedPostgres({ dataDir, port: 0 });
    await embedded.stop();
  });

  it('says in one line that the data directory cannot be used', async () => {
    const file = path.join(root, 'a-file');
    await writeFile(file, 'not a directory');
    await expect(
      startEmbeddedPostgres({ dataDir: path.join(file, 'postgres'), port: 0 }),
    ).rejects.toThrow(
      `Embedded PostgreSQL cannot use the data directory ${path.join(file, 'postgres')}: a file is in the way of the directory. Set DATA_DIR to a writable directory.`,
    );
    const stranger = path.join(root, 'not-a-cluster');
    await mkdir(stranger);
    await writeFile(path.join(stranger, 'notes.txt'), 'mine');
    await expect(startEmbeddedPostgres({ dataDir: stranger, port: 0 })).rejects.toThrow(
      `Embedded PostgreSQL cannot use ${stranger}: it is not empty and holds no PostgreSQL cluster. Empty it, or set DATA_DIR to another directory.`,
    );
    // The other files are untouched.
    expect(await readFile(path.join(stranger, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it.runIf(process.getuid?.() !== 0)('refuses a directory it may not write', async () => {
    const locked = path.join(root, 'locked');
    await mkdir(locked, { mode: 0o500 });
    await expect(
      startEmbeddedPostgres({ dataDir: path.join(locked, 'postgres'), port: 0 }),
    ).rejects.toThrow(/cannot use the data directory .*: permission denied/);
  });
});

describe('the console server on an embedded PostgreSQL', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'console-embedded-main-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stops at start with one line naming the unusable directory', async () => {
    const file = path.join(root, 'file');
    await writeFile(file, '');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: SERVER_ROOT,
      env: { ...process.env, DATA_DIR: file, NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    const lines = stderr
      .split('\n')
      .filter((line) => line.trim() && !line.includes('oidc-provider WARNING'));
    expect(lines).toEqual([
      `Embedded PostgreSQL cannot use the data directory ${path.join(file, 'postgres')}: a file is in the way of the directory. Set DATA_DIR to a writable directory.`,
    ]);
  });

  it('starts on an empty directory, migrates and seeds, and shuts PostgreSQL down on SIGTERM', async () => {
    const dataDir = path.join(root, 'data');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: SERVER_ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: '0',
        SMTP_CATCHER_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines = createInterface({ input: child.stdout! });
    const log: string[] = [];
    await new Promise<void>((resolve, reject) => {
      lines.on('line', (line) => {
        log.push(line);
        if (line.includes('Console ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const url = await runningEmbeddedPostgres(path.join(dataDir, 'postgres'));
    expect(url).toBeDefined();
    const rows = await query(url ?? '', 'select count(*)::int as n from countries');
    expect(rows[0]?.n).toBe(249);
    const postgres = await postmasterPid(path.join(dataDir, 'postgres'));
    child.kill('SIGTERM');
    await exited(child);
    expect(child.exitCode).toBe(0);
    expect(isRunning(postgres)).toBe(false);
    await expect(stat(path.join(dataDir, 'postgres.lock'))).rejects.toThrow(/ENOENT/);
    const steps = log.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(steps.slice(-3)).toEqual([
      'Database pool closed',
      `Embedded PostgreSQL ${path.join(dataDir, 'postgres')} stopped`,
      'Shutdown complete',
    ]);
  });
});
