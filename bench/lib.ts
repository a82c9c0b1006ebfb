import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import autocannon from 'autocannon';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

/** Runs autocannon against one URL and returns throughput and tail latency. */
export async function load(
  url: string,
  options: { connections: number; durationSeconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers ?? {},
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** Starts the real console server (embedded database) on a free port and waits until ready. */
export async function startConsoleServer(
  port: number,
  extraEnv: Record<string, string> = {},
): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'console-bench-'));
  const url = `http://localhost:${port}`;
  // Node itself with tsx's loader (not `npx tsx`): the signal of stop() must reach the server.
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForReady(`${url}/readyz`, child);
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function waitForReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Server not ready at ${url} after 120 s`);
}

export function ratio(value: number, baseline: number): string {
  return baseline === 0 ? 'n/a' : (value / baseline).toFixed(2);
}

export const chromiumLaunchOptions = {
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
};

/** Signs in through the embedded identity provider in Chromium and returns an access token. */
export async function accessTokenFor(serverUrl: string, email: string): Promise<string> {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage();
    await page.goto(`${serverUrl}/authenticated`);
    await page.getByRole('button', { name: email }).click();
    await page.waitForURL(/\/dashboard/);
    const session = (await (await page.request.get(`${serverUrl}/auth/session`)).json()) as {
      accessToken: string;
    };
    return session.accessToken;
  } finally {
    await browser.close();
  }
}
