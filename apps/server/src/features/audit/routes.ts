import {
  auditApi,
  auditExportQuerySchema,
  auditListQuerySchema,
  auditListSchema,
} from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { auditExport, listAudit } from './queries.ts';

/**
 * The audit log (issue 31, docs/audit.md): staff only. It holds every tenant's changes and the
 * sign-ins, so tenant users are refused rather than scoped.
 */
export function registerAuditRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const routes = featureRoutes(app, { tags: ['audit'], allow: ['staff'] });

  routes.answerJsonText(auditApi.list, {
    summary: 'One page of the audit log, newest first: who changed what, when, before and after',
    querystring: auditListQuerySchema,
    response: auditListSchema,
    handle: ({ query }) => listAudit(database.db, query),
  });

  routes.export(auditApi.export, {
    summary:
      "Every audit row the log's filters keep, newest first, as a CSV or xlsx file (docs/audit.md)",
    querystring: auditExportQuerySchema,
    handle: ({ query }) => auditExport(database.db, query),
  });
}
