import {
  idParamsSchema,
  RATINGS_IMPORT_MAX_BODY_BYTES,
  ratingsImportApi,
  ratingsImportHistorySchema,
  ratingsImportJobSchema,
  ratingsImportRequestSchema,
  ratingsImportStartedSchema,
  ratingsStatisticsSchema,
  storedRatingsPageSchema,
  storedRatingsQuerySchema,
  wholeListExportQuerySchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import { runInBackground } from '../../http/lifecycle.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { ratingsExport, spreadsheetExport } from './export.ts';
import { cancelImport, ImportRunner, startImport } from './jobs.ts';
import { listImportJobs, listRatings, readImportJob, readStatistics } from './queries.ts';

/**
 * FATF ratings import (spec part 2, section 7 "Ratings import"): staff start, follow, cancel and
 * list imports. Jobs run in the instances that run background work (EVENT_WORKERS_ENABLED).
 */
export function registerRatingsImportRoutes(
  app: ConsoleApp,
  { database, config }: FeatureDependencies,
) {
  const { db } = database;
  const runner = config.eventWorkersEnabled
    ? new ImportRunner(db, app.log.child({ component: 'fatf-import' }))
    : undefined;
  if (runner) runInBackground(app, runner);

  const routes = featureRoutes(app, { tags: ['fatf'], allow: ['staff'] });

  routes.create(ratingsImportApi.start, {
    summary: 'Start an import of ratings records; answers the import id to follow',
    body: ratingsImportRequestSchema,
    bodyLimit: RATINGS_IMPORT_MAX_BODY_BYTES,
    // Every stored field of a record is read by the record schema when the import starts.
    bodyTextChecked: true,
    response: ratingsImportStartedSchema,
    errors: [413],
    async handle({ user, body }) {
      const started = await startImport(db, user, body);
      runner?.kick();
      return started;
    },
  });

  routes.answer(ratingsImportApi.status, {
    summary: 'The state of one import: status, progress, message, and its result once completed',
    params: idParamsSchema,
    response: ratingsImportJobSchema,
    errors: [404],
    handle: ({ params }) => readImportJob(db, params.id),
  });

  routes.answer(ratingsImportApi.history, {
    summary: 'The latest imports, newest first',
    response: ratingsImportHistorySchema,
    handle: () => listImportJobs(db),
  });

  routes.delete(ratingsImportApi.cancel, {
    summary: 'Cancel a pending or running import: nothing of it remains',
    params: idParamsSchema,
    errors: [404, 409],
    handle: ({ user, params }) => cancelImport(db, user, params.id),
  });

  routes.export(ratingsImportApi.export, {
    summary: 'Every stored rating as a spreadsheet, fatf-data-{date}.xlsx',
    handle: () => spreadsheetExport(db),
  });

  routes.export(ratingsImportApi.ratingsExport, {
    summary: "Every stored rating as a CSV or xlsx file, the import file's columns",
    querystring: wholeListExportQuerySchema,
    handle: ({ query }) => ratingsExport(db, query.format),
  });

  routes.answer(ratingsImportApi.ratings, {
    summary: 'One page of the stored ratings, by jurisdiction, the latest report first',
    querystring: storedRatingsQuerySchema,
    response: storedRatingsPageSchema,
    handle: ({ query }) => listRatings(db, query),
  });

  routes.answer(ratingsImportApi.stats, {
    summary: 'Completed imports, ratings stored, countries with data, last import date',
    response: ratingsStatisticsSchema,
    handle: () => readStatistics(db),
  });
}
