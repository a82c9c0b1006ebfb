import {
  emailTemplateCreatedSchema,
  emailTemplateCreateSchema,
  emailTemplateIdParamsSchema,
  emailTemplateListSchema,
  emailTemplatePreviewRequestSchema,
  emailTemplatePreviewSchema,
  emailTemplateSchema,
  emailTemplatesApi,
  emailTemplateTestSendResultSchema,
  emailTemplateTestSendSchema,
  emailTemplateUpdateSchema,
  wholeListExportQuerySchema,
  emailTemplateVersionCreatedSchema,
  emailTemplateVersionCreateSchema,
} from '@console/contracts';
import { z } from 'zod';
import type { ConsoleApp } from '../../http/console-app.ts';
import { notFound } from '../../http/errors.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { emailTemplatesExport, findEmailTemplate, listEmailTemplates } from './queries.ts';
import { createTestMailer, previewVersion } from './sending.ts';
import {
  createEmailTemplate,
  createEmailTemplateVersion,
  deleteEmailTemplate,
  updateEmailTemplate,
} from './writes.ts';

/**
 * Email templates (spec part 2, section 7): staff read and write; tenant users are refused (403):
 * templates of every tenant live here, and a test send mails any address.
 */
export function registerEmailTemplateRoutes(
  app: ConsoleApp,
  { database, config }: FeatureDependencies,
) {
  const { db } = database;
  const routes = featureRoutes(app, { tags: ['email templates'], allow: ['staff'] });
  const mailer = createTestMailer(db, config.smtpUrl, app.metrics);
  app.addHook('onClose', async () => mailer.close());

  routes.answer(emailTemplatesApi.list, {
    summary: 'List every email template with its active version number, by key',
    response: emailTemplateListSchema,
    handle: () => listEmailTemplates(db),
  });

  routes.export(emailTemplatesApi.export, {
    summary: 'Every email template as a CSV or xlsx file',
    querystring: wholeListExportQuerySchema,
    handle: ({ query }) => emailTemplatesExport(db, query.format),
  });

  routes.answer(emailTemplatesApi.get, {
    summary: 'One email template with its versions, by version number',
    params: emailTemplateIdParamsSchema,
    response: emailTemplateSchema,
    errors: [404],
    handle: async ({ params }) => {
      const template = await findEmailTemplate(db, params.id);
      if (!template) throw notFound(`Email template ${params.id} not found.`);
      return template;
    },
  });

  routes.create(emailTemplatesApi.create, {
    summary:
      'Create an email template (no version yet); 400 unknown tenant or entity, 409 key taken in its scope',
    body: emailTemplateCreateSchema,
    response: emailTemplateCreatedSchema,
    errors: [409],
    handle: ({ user, body }) => createEmailTemplate(db, user, body),
  });

  routes.answer(emailTemplatesApi.update, {
    summary:
      'Update scope, product fields and the active version; 400 key changed or version of another template, 404 unknown',
    params: emailTemplateIdParamsSchema,
    body: emailTemplateUpdateSchema,
    response: z.null().describe('Updated'),
    errors: [404, 409],
    handle: async ({ user, params, body }) => {
      await updateEmailTemplate(db, user, params.id, body);
      return null;
    },
  });

  routes.delete(emailTemplatesApi.delete, {
    summary: 'Delete an email template and its versions',
    params: emailTemplateIdParamsSchema,
    errors: [404],
    handle: ({ user, params }) => deleteEmailTemplate(db, user, params.id),
  });

  routes.create(emailTemplatesApi.createVersion, {
    summary:
      'Add a version numbered one above the highest; 400 when a part does not compile or jsonSchema is not a JSON Schema',
    params: emailTemplateIdParamsSchema,
    body: emailTemplateVersionCreateSchema,
    response: emailTemplateVersionCreatedSchema,
    errors: [404],
    handle: ({ user, params, body }) => createEmailTemplateVersion(db, user, params.id, body),
  });

  routes.answer(emailTemplatesApi.preview, {
    summary:
      'Render a version (saved or not) with sample data from its jsonSchema; the HTML sanitised for display',
    body: emailTemplatePreviewRequestSchema,
    response: emailTemplatePreviewSchema,
    handle: async ({ body }) => previewVersion(body),
  });

  routes.answer(emailTemplatesApi.testSend, {
    summary:
      'Send a saved version (VersionId; the active one when absent), rendered with sample data, to ToAddress; 404 unknown key or version, 409 no active version, 502 when SMTP refuses or is unreachable',
    body: emailTemplateTestSendSchema,
    response: emailTemplateTestSendResultSchema,
    errors: [404, 409, 502, 503],
    handle: ({ user, body }) =>
      mailer.send({
        toAddress: body.ToAddress,
        templateKey: body.TemplateKey,
        versionId: body.VersionId,
        actor: user,
      }),
  });
}
