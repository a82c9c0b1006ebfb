import type { AppDependencies, ConsoleApp } from '../http/console-app.ts';
import { runInBackground } from '../http/lifecycle.ts';
import { createCountryRiskWorker } from '../features/ratings-import/country-risk.ts';
import type { AppConfig } from '../config.ts';
import type { ConsoleMetrics } from '../observability/metrics.ts';
import { createAuditTrailWorker } from './audit-trail.ts';
import { registerDevMailRoutes } from './dev-mail-routes.ts';
import { EventDispatcher } from './dispatcher.ts';
import { createNotificationsWorker } from './notifications.ts';
import { createRetentionJob } from './retention.ts';
import { SmtpCatcher } from './smtp-catcher.ts';
import type { EventWorker } from './worker.ts';

/** The event pipeline (docs/events.md): outbox, workers, dispatcher, development mail catcher. */

export {
  changedFields,
  eventRecordingCtes,
  prepareEvents,
  recordEvent,
  recordEventIfPossible,
  recordEvents,
  type NewEvent,
  type RecordedEventId,
} from './outbox.ts';
export { resetProcessing, type ResetOutcome } from './processing.ts';
export { EVENT_SUBSCRIPTIONS } from './subscriptions.ts';
export { EventDispatcher } from './dispatcher.ts';
export { SmtpCatcher, type CaughtMail } from './smtp-catcher.ts';
export {
  toRecordedEvent,
  type EventSubscription,
  type EventWorker,
  type RecordedEvent,
} from './worker.ts';

export interface EventServices {
  /** Absent when EVENT_WORKERS_ENABLED=false (an API-only instance). */
  dispatcher: EventDispatcher | undefined;
  /** The development SMTP catcher, while it runs (SMTP_CATCHER_PORT). */
  catcher: SmtpCatcher | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    eventServices: EventServices;
  }
}

/** The console's workers, ready to run with this configuration. */
export function createEventWorkers(
  config: AppConfig,
  metrics: ConsoleMetrics | undefined,
): EventWorker[] {
  return [
    createAuditTrailWorker(),
    createNotificationsWorker({
      metrics,
      smtpUrl: config.smtpUrl,
      from: config.smtpFrom,
      publicUrl: config.publicUrl,
      // Each of connect, greeting and socket inactivity: a send ends well within the lease.
      timeoutMs: Math.min(10_000, Math.max(1_000, (config.eventLeaseSeconds * 1000) / 4)),
    }),
    createCountryRiskWorker(),
  ];
}

/**
 * Starts the development SMTP catcher (when configured) and its /api/dev/mail routes, and the
 * event workers when the app is ready; the workers begin to stop when the app begins to close,
 * the catcher after them (both before the database).
 */
export async function registerEventServices(
  app: ConsoleApp,
  { config, database }: AppDependencies,
): Promise<EventServices> {
  const logger = app.log.child({ component: 'events' });
  const catcher = await startCatcher(config, logger);
  if (catcher) registerDevMailRoutes(app, catcher);

  const dispatcher = config.eventWorkersEnabled
    ? new EventDispatcher({
        db: database.db,
        workers: createEventWorkers(config, app.metrics),
        metrics: app.metrics,
        logger,
        leaseSeconds: config.eventLeaseSeconds,
        pollIntervalMs: config.eventPollIntervalMs,
        listenConnectionString: database.connectionString,
      })
    : undefined;
  if (!dispatcher) logger.info('Event workers disabled (EVENT_WORKERS_ENABLED=false)');

  const services: EventServices = { dispatcher, catcher };
  app.decorate('eventServices', services);
  if (dispatcher) runInBackground(app, dispatcher);
  // Every instance may prune; the advisory lock lets one at a time do it.
  runInBackground(
    app,
    createRetentionJob(
      database.db,
      {
        eventRetentionDays: config.eventRetentionDays,
        auditRetentionDays: config.auditRetentionDays,
      },
      logger,
    ),
  );
  app.addHook('onClose', async () => {
    // After the workers: the notifications worker may be sending to the catcher.
    await dispatcher?.stop();
    await catcher?.stop();
  });
  return services;
}

async function startCatcher(
  config: AppConfig,
  logger: ConsoleApp['log'],
): Promise<SmtpCatcher | undefined> {
  if (config.smtpCatcherPort <= 0) return undefined;
  const catcher = new SmtpCatcher();
  try {
    const port = await catcher.start(config.smtpCatcherPort);
    logger.info(
      `SMTP catcher at smtp://127.0.0.1:${port}: mail is kept in memory, not delivered (GET /api/dev/mail)`,
    );
    return catcher;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    logger.warn(
      `SMTP catcher not started: 127.0.0.1:${config.smtpCatcherPort} is in use (another console?); mail goes to whatever listens there`,
    );
    return undefined;
  }
}
