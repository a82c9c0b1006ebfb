import {
  eventExportQuerySchema,
  eventIdParamsSchema,
  eventListQuerySchema,
  eventListSchema,
  eventResetBodySchema,
  eventResetQuerySchema,
  eventsApi,
  eventSchema,
  testEventResultSchema,
} from '@console/contracts';
import { holdsRole, type AuthenticatedUser } from '../../auth/index.ts';
import type { ConsoleApp } from '../../http/console-app.ts';
import { badRequest, forbidden } from '../../http/errors.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { eventsExport, listEvents, type EventScope } from './queries.ts';
import { recordTestEvent, resetEvent } from './writes.ts';

/**
 * Events (spec part 1, section 7): the log for staff (every tenant) and tenant users (their
 * tenant's events only); reset and test events for staff.
 */
export function registerEventRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const { db } = database;
  const routes = featureRoutes(app, { tags: ['events'], allow: ['staff'] });

  routes.answerJsonText(eventsApi.list, {
    summary: "One page of the event log, newest first by default; tenant users see their tenant's",
    allow: ['staff', 'tenant'],
    querystring: eventListQuerySchema,
    response: eventListSchema,
    handle: ({ user, query }) => listEvents(db, query, eventScopeOf(user)),
  });

  routes.export(eventsApi.export, {
    summary:
      "Every event the log's filters keep, as a CSV or xlsx file; tenant users get their tenant's",
    allow: ['staff', 'tenant'],
    querystring: eventExportQuerySchema,
    handle: ({ user, query }) => eventsExport(db, query, eventScopeOf(user)),
  });

  routes.answer(eventsApi.reset, {
    summary:
      "Return an event to its workers: one worker's record (workerName, in the query or the body) or all",
    params: eventIdParamsSchema,
    querystring: eventResetQuerySchema,
    body: eventResetBodySchema,
    response: eventSchema,
    errors: [404],
    handle: async ({ user, params, query, body }) => {
      const fromQuery = query.workerName;
      const fromBody = body?.workerName;
      if (fromQuery !== undefined && fromBody !== undefined && fromQuery !== fromBody) {
        throw badRequest(
          `workerName differs between the query (${fromQuery}) and the body (${fromBody})`,
        );
      }
      return resetEvent(db, user, params.id, fromQuery ?? fromBody);
    },
  });

  routes.create(eventsApi.test, {
    summary: "Record a 'TestEvent' that goes through the workers",
    response: testEventResultSchema,
    handle: ({ user }) => recordTestEvent(db, user),
  });
}

/** Whose events `user` lists: staff every tenant's, a tenant user its own tenant's. */
function eventScopeOf(user: AuthenticatedUser): EventScope {
  if (holdsRole(user.roles, 'staff')) return { kind: 'all' };
  if (user.tenantId !== undefined) return { kind: 'tenant', tenantId: user.tenantId };
  throw forbidden();
}
