import {
  eventIdParamsSchema,
  eventListQuerySchema,
  eventListSchema,
  eventResetBodySchema,
  eventResetQuerySchema,
  eventsApi,
  eventSchema,
  testEventResultSchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import { currentUser, holdsRole } from '../../auth/index.ts';
import { badRequest, forbidden } from '../../http/errors.ts';
import { errorResponses } from '../errors.ts';
import type { FeatureDependencies } from '../index.ts';
import { listEvents, type EventScope } from './queries.ts';
import { recordTestEvent, resetEvent } from './writes.ts';

/**
 * Events (spec part 1, section 7): the log for staff (every tenant) and tenant users (their
 * tenant's events only); reset and test events for staff.
 */
export function registerEventRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const { db } = database;
  const tags = ['events'];

  app.get(
    eventsApi.list.path,
    {
      config: { allow: ['staff', 'tenant'] },
      schema: {
        tags,
        summary:
          "One page of the event log, newest first by default; tenant users see their tenant's",
        querystring: eventListQuerySchema,
        response: { 200: eventListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      let scope: EventScope;
      if (holdsRole(user.roles, 'staff')) scope = { kind: 'all' };
      else if (user.tenantId !== undefined) scope = { kind: 'tenant', tenantId: user.tenantId };
      else throw forbidden();
      return listEvents(db, request.query, scope);
    },
  );

  app.post(
    eventsApi.reset.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary:
          "Return an event to its workers: one worker's record (workerName, in the query or the body) or all",
        params: eventIdParamsSchema,
        querystring: eventResetQuerySchema,
        body: eventResetBodySchema,
        response: { 200: eventSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const fromQuery = request.query.workerName;
      const fromBody = request.body?.workerName;
      if (fromQuery !== undefined && fromBody !== undefined && fromQuery !== fromBody) {
        throw badRequest(
          `workerName differs between the query (${fromQuery}) and the body (${fromBody})`,
        );
      }
      return resetEvent(db, currentUser(request), request.params.id, fromQuery ?? fromBody);
    },
  );

  app.post(
    eventsApi.test.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: "Record a 'TestEvent' that goes through the workers",
        response: { 201: testEventResultSchema, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const created = await recordTestEvent(db, currentUser(request));
      return reply.code(201).send(created);
    },
  );
}
