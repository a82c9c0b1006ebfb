import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  accessTokenFor,
  load,
  ratio,
  residentMegabytes,
  startBareServer,
  startConsoleServer,
  verdict,
} from './lib.ts';

const CONSOLE_PORT = 3271;
const BARE_PORT = 3272;
const CONNECTIONS = 200;
const PATH = '/api/countries';

/**
 * The server's resident memory (issue 30, "Memory that stays small"): GET /api/countries under
 * 200 connections for BENCH_MEMORY_SECONDS (default 60), then BENCH_MEMORY_IDLE_SECONDS idle
 * (default 60), the console as `npm start` runs it (its Node options, LOG_LEVEL=info into a file)
 * against plain Node (bench/bare-node.mjs: no framework, no TypeScript loader) answering the same
 * bytes under the same load. Resident size (VmRSS) of the server process alone: the embedded
 * PostgreSQL runs in processes of its own. Target: ≤ 2.5x the bare server's, after the load and
 * after the idle minute.
 */
export async function benchMemory(): Promise<void> {
  const seconds = Number(process.env.BENCH_MEMORY_SECONDS ?? '60');
  const idleSeconds = Number(process.env.BENCH_MEMORY_IDLE_SECONDS ?? '60');
  const logFile = path.join(await mkdtemp(path.join(tmpdir(), 'console-bench-memory-')), 'log');
  const consoleServer = await startConsoleServer(CONSOLE_PORT, {
    env: { LOG_LEVEL: 'info' },
    logFile,
  });
  try {
    const headers = {
      authorization: `Bearer ${await accessTokenFor(consoleServer.url, 'admin@example.com')}`,
    };
    const bytes = Buffer.from(
      await (await fetch(`${consoleServer.url}${PATH}`, { headers })).arrayBuffer(),
    );
    const bare = await startBareServer('bench/bare-node.mjs', BARE_PORT, PATH, bytes);
    const baseline = await measure(
      bare.pid,
      `http://127.0.0.1:${BARE_PORT}${PATH}`,
      {},
      {
        seconds,
        idleSeconds,
      },
    ).finally(bare.stop);
    const measured = await measure(consoleServer.pid, `${consoleServer.url}${PATH}`, headers, {
      seconds,
      idleSeconds,
    });

    console.log(
      `memory: GET ${PATH} (${bytes.length} bytes), ${CONNECTIONS} connections for ${seconds} s, then ${idleSeconds} s idle; resident MB`,
    );
    for (const [name, figures] of [
      ['plain Node', baseline],
      ['console', measured],
    ] as const) {
      console.log(
        `  ${name.padEnd(11)}: start ${figures.startMb.toFixed(0)}, peak ${figures.peakMb.toFixed(0)}, ` +
          `after the load ${figures.afterLoadMb.toFixed(0)}, after idle ${figures.afterIdleMb.toFixed(0)}; ` +
          `${figures.requestsPerSecond.toFixed(0)} req/s, errors ${figures.errors}`,
      );
    }
    const afterLoad = measured.afterLoadMb / baseline.afterLoadMb;
    const afterIdle = measured.afterIdleMb / baseline.afterIdleMb;
    console.log(
      `  ratio      : after the load ${ratio(measured.afterLoadMb, baseline.afterLoadMb)}x, ` +
        `after idle ${ratio(measured.afterIdleMb, baseline.afterIdleMb)}x, peak ${ratio(measured.peakMb, baseline.peakMb)}x`,
    );
    console.log(
      `  target     : ≤ 2.5x after the load and after idle: ${verdict(
        afterLoad <= 2.5 && afterIdle <= 2.5 && measured.errors === 0,
        `${afterLoad.toFixed(2)}x, ${afterIdle.toFixed(2)}x, errors ${measured.errors}`,
      )}`,
    );
  } finally {
    await consoleServer.stop();
  }
}

interface MemoryFigures {
  startMb: number;
  peakMb: number;
  afterLoadMb: number;
  afterIdleMb: number;
  requestsPerSecond: number;
  errors: number;
}

/** The load on `url`, with the resident size of `pid` sampled every 250 ms, then the idle time. */
async function measure(
  pid: number,
  url: string,
  headers: Record<string, string>,
  { seconds, idleSeconds }: { seconds: number; idleSeconds: number },
): Promise<MemoryFigures> {
  const startMb = await residentMegabytes(pid);
  let peakMb = startMb;
  const sampler = setInterval(() => {
    void residentMegabytes(pid).then((mb) => {
      peakMb = Math.max(peakMb, mb);
    });
  }, 250);
  const result = await load(url, { connections: CONNECTIONS, durationSeconds: seconds, headers });
  clearInterval(sampler);
  const afterLoadMb = await residentMegabytes(pid);
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  return {
    startMb,
    peakMb: Math.max(peakMb, afterLoadMb),
    afterLoadMb,
    afterIdleMb: await residentMegabytes(pid),
    requestsPerSecond: result.requestsPerSecond,
    errors: result.errors,
  };
}
