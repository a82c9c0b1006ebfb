import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/test-database.ts';
import { recordEvents } from './outbox.ts';
import { eventState, eventually } from './test-support.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CHILD = 'apps/server/test/crashing-worker-process.ts';
const WORKER = { name: 'crash-prone', subscribesTo: 'all' } as const;
const LEASE_SECONDS = 1;
const MAX_ATTEMPTS = 3;
const HEALTHY = 20;

/** Runs the crash-prone worker process to its end; answers how it ended. */
function runWorkerProcess(databaseUrl: string): Promise<NodeJS.Signals | number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      EVENT_LEASE_SECONDS: String(LEASE_SECONDS),
      MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
}

describe('a crash charges an attempt only to the work that began', () => {
  const database = useTestDatabase();

  it('fails the event that kills its worker, and none of the healthy ones claimed with it', async () => {
    const { db } = database;
    const [poison, ...healthy] = await db.transaction().execute((trx) =>
      recordEvents(
        trx,
        [
          { eventName: 'Poison', metadata: {} },
          ...Array.from({ length: HEALTHY }, (_, index) => ({
            eventName: 'Healthy',
            metadata: { index },
          })),
        ],
        { subscriptions: [WORKER] },
      ),
    );

    // Each run claims the whole batch, begins the poison event first and is killed (SIGKILL);
    // the next run takes the batch over once the lease expired.
    const endings: (NodeJS.Signals | number | null)[] = [];
    for (let run = 0; run < MAX_ATTEMPTS; run++) {
      endings.push(await runWorkerProcess(database.connectionString));
      await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000 + 100));
    }
    expect(endings).toEqual(Array(MAX_ATTEMPTS).fill('SIGKILL'));
    // The next run gives the poison event up without beginning it, and does the rest.
    expect(await runWorkerProcess(database.connectionString)).toBe(0);

    const poisoned = await eventually(async () => {
      const state = await eventState(db, poison?.id ?? 0);
      return state.hasError ? state : undefined;
    });
    expect(poisoned.records[0]).toMatchObject({
      attempts: MAX_ATTEMPTS + 1,
      errorMessage: `Gave up after ${MAX_ATTEMPTS} attempts: each time the instance processing this event stopped before finishing (its ${LEASE_SECONDS} s lease expired)`,
    });
    for (const event of healthy) {
      const state = await eventState(db, event.id);
      expect(state).toMatchObject({ isProcessed: true, hasError: false });
      // Claimed by every crashed run, but charged only for the run that did it.
      expect(state.records[0]).toMatchObject({ processed: true, attempts: 1 });
    }
  }, 60_000);
});
