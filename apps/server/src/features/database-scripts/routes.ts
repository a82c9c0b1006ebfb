import {
  databaseScriptListSchema,
  databaseScriptsApi,
  scriptExecutionResultSchema,
  scriptHistoryPageSchema,
  scriptHistoryQuerySchema,
  scriptIdParamsSchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { SCRIPT_CATALOGUE } from './catalogue.ts';
import { listScripts, readHistory } from './queries.ts';
import { executeScript } from './writes.ts';

/**
 * Database Scripts (spec part 2, section 7): staff read the catalogue and the history; only
 * admins execute, and only scripts of the catalogue, by id.
 */
export function registerDatabaseScriptRoutes(
  app: ConsoleApp,
  { database, maintenance }: FeatureDependencies,
) {
  const { db } = database;
  const scripts = maintenance?.scripts ?? SCRIPT_CATALOGUE;
  const routes = featureRoutes(app, { tags: ['database scripts'], allow: ['staff'] });

  routes.answer(databaseScriptsApi.list, {
    summary: 'The catalogue of scripts, and whether the caller may execute them',
    response: databaseScriptListSchema,
    handle: async ({ user }) => listScripts(user, scripts),
  });

  routes.answer(databaseScriptsApi.history, {
    summary: 'Executions of scripts, newest first, one page (offset, limit)',
    querystring: scriptHistoryQuerySchema,
    response: scriptHistoryPageSchema,
    handle: ({ query }) => readHistory(db, query),
  });

  routes.answer(databaseScriptsApi.execute, {
    summary:
      'Execute a catalogue script in a transaction with a statement timeout (admins); a failure answers success false',
    allow: ['admin'],
    params: scriptIdParamsSchema,
    response: scriptExecutionResultSchema,
    errors: [404],
    handle: ({ user, params }) => executeScript(db, user, scripts, params.id),
  });
}
