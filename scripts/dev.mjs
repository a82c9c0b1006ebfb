#!/usr/bin/env node
// npm run dev: the server in watch mode (tsx watch) and the Vite dev server side by side, their
// output prefixed. Ctrl+C stops both; so does either one exiting. Plain Node, no dependencies.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const isWindows = process.platform === 'win32';
const useColor = Boolean(process.stdout.isTTY) && !('NO_COLOR' in process.env);
const GRACE_MS = 5_000;

const services = [
  { name: 'server', color: 36, args: ['run', 'dev', '-w', 'apps/server'] },
  { name: 'web', color: 35, args: ['run', 'dev', '-w', 'apps/web'] },
];
const width = Math.max(...services.map((service) => service.name.length));

/**
 * @type {{ name: string, child: import('node:child_process').ChildProcess, exited: boolean,
 *   closed: boolean }[]}
 */
const running = [];
let stopping = false;
let stoppedAt = 0;
let exitCode = 0;

for (const service of services) {
  const label = `[${service.name}]`.padEnd(width + 3);
  const prefix = useColor ? `\x1b[${service.color}m${label}\x1b[0m` : label;
  const child = spawn(isWindows ? 'npm.cmd' : 'npm', service.args, {
    cwd: root,
    // Its own process group, so that stopping it reaches tsx/vite below npm too.
    detached: !isWindows,
    shell: isWindows,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...(useColor ? { FORCE_COLOR: '1' } : {}) },
  });
  const entry = { name: service.name, child, exited: false, closed: false };
  running.push(entry);
  forward(child.stdout, process.stdout, prefix);
  forward(child.stderr, process.stderr, prefix);
  child.on('error', (error) => {
    process.stderr.write(`${prefix}could not start: ${error.message}\n`);
    entry.exited = entry.closed = true;
    stopAll(1);
    exitWhenAllClosed();
  });
  child.on('exit', (code, signal) => {
    entry.exited = true;
    if (!stopping) {
      process.stderr.write(`${prefix}exited (${signal ?? `code ${code}`}); stopping the others\n`);
      stopAll(code === 0 ? 0 : (code ?? 1));
    }
  });
  // 'close' comes after the last output line: only then is everything forwarded.
  child.on('close', () => {
    entry.closed = true;
    exitWhenAllClosed();
  });
}

function forward(stream, target, prefix) {
  if (!stream) return;
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
    target.write(`${prefix}${line}\n`);
  });
}

function signalAll(signal) {
  for (const { child, closed } of running) {
    // Not `exited`: npm may be gone while tsx or vite below it still run in its group.
    if (closed || child.pid === undefined) continue;
    try {
      if (isWindows) child.kill(signal);
      else process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function exitWhenAllClosed() {
  if (running.length === services.length && running.every((entry) => entry.closed)) {
    process.exit(exitCode);
  }
}

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  stoppedAt = Date.now();
  exitCode = code;
  process.exitCode = code;
  signalAll('SIGTERM');
  // Whatever has not stopped after the grace period is killed; then we leave regardless.
  setTimeout(() => {
    signalAll('SIGKILL');
    setTimeout(() => process.exit(exitCode), 1_000).unref();
  }, GRACE_MS).unref();
}

// Ctrl+C reaches us twice at once under `npm run dev` (from the terminal and relayed by npm): only
// a signal a second or more after the first one means "stop now" and kills.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (!stopping) stopAll(0);
    else if (Date.now() - stoppedAt > 1_000) signalAll('SIGKILL');
  });
}
