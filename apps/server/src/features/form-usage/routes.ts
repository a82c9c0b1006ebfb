import fastifyMultipart from '@fastify/multipart';
import {
  entityProfileParamsSchema,
  fieldGroupParamsSchema,
  fieldGroupQuerySchema,
  FORM_SUBMITTED_MESSAGE,
  formGroupParamsSchema,
  formNameOrIdParamsSchema,
  formNameParamsSchema,
  formsApi,
  formSubmissionSchema,
  formSubmitResultSchema,
  formUsageApi,
  PROFILE_FORM_NAMES,
  PROFILE_SAVED_MESSAGE,
  profileFileParamsSchema,
  profileSchema,
  profileSubmitPartsSchema,
  profileSubmitResultSchema,
  tenantProfileParamsSchema,
  VALIDATION_PROBLEM_TITLE,
  validationProblemSchema,
  type ProfileSubmitParts,
} from '@console/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser, holdsRole, type Role } from '../../auth/index.ts';
import type { ConsoleApp } from '../../http/console-app.ts';
import { forbidden, HttpError, notFound } from '../../http/errors.ts';
import { errorBodySchema, errorResponses } from '../errors.ts';
import { findFormDefinition } from '../forms/queries.ts';
import type { FeatureDependencies } from '../index.ts';
import { featureRoutes } from '../routes.ts';
import { PROFILE_MULTIPART_LIMITS, readProfileParts, type UploadedFile } from './multipart.ts';
import {
  catalogueGroupFields,
  reachableProfileTargets,
  readProfile,
  readProfileFile,
  type ProfileKey,
} from './queries.ts';
import { renderCatalogueGroup, renderForm, renderFormGroup } from './rendering.ts';
import { submitProfile, testSubmission, type SubmissionOutcome } from './writes.ts';

/**
 * The rendering and submission calls of the forms service (spec part 2, section 7: a form's HTML,
 * a group's HTML, the test submission) and the form usage calls of the profile dialogs (spec
 * part 1, section 7). See docs/form-usage.md.
 */

const STAFF: readonly Role[] = ['staff'];
const STAFF_AND_TENANTS: readonly Role[] = ['staff', 'tenant'];

/** The OpenAPI entry of an HTML answer (its serializer is never used: the body is text). */
const htmlResponse = z.string().meta({
  description: 'HTML (text/html; charset=utf-8)',
  content: { 'text/html': { schema: { type: 'string' } } },
});
const fileResponse = z.unknown().meta({
  description: 'The file, as an attachment',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
});
/** A 400 is a refused request (`{message, errors: [...]}`) or refused values (`{title, errors}`). */
const submitRefusal = z.union([validationProblemSchema, errorBodySchema]);

function sendHtml(reply: FastifyReply, html: string) {
  return reply
    .type('text/html; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(html);
}

/** `{message, submittedData}`, or 400 `{title, errors}` with the problems by label. */
function answerSubmission(reply: FastifyReply, outcome: SubmissionOutcome, message: string) {
  if (!outcome.ok) {
    return reply.code(400).send({ title: VALIDATION_PROBLEM_TITLE, errors: outcome.errors });
  }
  return reply.code(200).send({ message, submittedData: outcome.submittedData });
}

/** RFC 6266: an ASCII fallback and the UTF-8 name. */
function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // RFC 5987's attr-char leaves out the few characters encodeURIComponent keeps as they are.
  const encoded = encodeURIComponent(fileName).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** The files read from a submission's body, until its handler takes them. */
const uploadedFiles = new WeakMap<FastifyRequest, UploadedFile[]>();

export function registerFormUsageRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  const { db } = database;

  // --- The forms service: HTML of a form and of a group, test submission (staff).

  app.route({
    method: formsApi.html.method,
    url: formsApi.html.path,
    config: { allow: STAFF },
    schema: {
      tags: ['forms'],
      summary: "A form's HTML: its unresolved field markers, then its groups in order",
      params: formNameParamsSchema,
      response: { 200: htmlResponse, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { name } = request.params;
      const definition = await findFormDefinition(db, { name });
      if (!definition) throw notFound(`Form ${name} not found.`);
      const html = renderForm(definition, {
        roles: user.roles,
        hasEditPermission: true,
        showValidationSummary: false,
      });
      return sendHtml(reply, html);
    },
  });

  app.route({
    method: formsApi.fieldGroup.method,
    url: formsApi.fieldGroup.path,
    config: { allow: STAFF },
    schema: {
      tags: ['forms'],
      summary:
        "One group's HTML (the first group starts with the form's unresolved field markers); 404 unknown form or group",
      params: formGroupParamsSchema,
      response: { 200: htmlResponse, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { name, group } = request.params;
      const definition = await findFormDefinition(db, { name });
      if (!definition) throw notFound(`Form ${name} not found.`);
      const html = renderFormGroup(
        definition,
        group,
        { roles: user.roles, hasEditPermission: true, showValidationSummary: false },
        true,
      );
      if (html === undefined) throw notFound(`Form ${name} has no group ${group}.`);
      return sendHtml(reply, html);
    },
  });

  app.route({
    method: formsApi.submit.method,
    url: formsApi.submit.path,
    config: { allow: STAFF },
    schema: {
      tags: ['forms'],
      summary:
        'Test-submit a form (by name or id): the values are validated against its fields and nothing is stored; 400 {title, errors} by label',
      params: formNameOrIdParamsSchema,
      body: formSubmissionSchema,
      response: {
        200: formSubmitResultSchema,
        ...errorResponses(401, 403, 404),
        400: submitRefusal,
      },
    },
    handler: async (request, reply) => {
      const outcome = await testSubmission(
        db,
        currentUser(request),
        request.params.nameOrId,
        request.body.DataObject,
      );
      return answerSubmission(reply, outcome, FORM_SUBMITTED_MESSAGE);
    },
  });

  // --- Form usage: the profile dialogs (staff; tenant users for their own tenant's entities only).

  app.route({
    method: formUsageApi.fieldGroup.method,
    url: formUsageApi.fieldGroup.path,
    config: { allow: STAFF_AND_TENANTS },
    schema: {
      tags: ['form usage'],
      summary:
        "One group's HTML: of the form `form` (a tenant user must name EditEntityProfile), else of the whole field catalogue; 404 unknown form or group",
      params: fieldGroupParamsSchema,
      querystring: fieldGroupQuerySchema,
      response: { 200: htmlResponse, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { group } = request.params;
      const { form, hasEditPermission, showValidationSummary } = request.query;
      if (!holdsRole(user.roles, 'staff')) {
        const forms = reachableProfileTargets(user).map((target) => PROFILE_FORM_NAMES[target]);
        if (!forms.some((name) => name.toLowerCase() === form?.toLowerCase())) {
          throw forbidden(
            `A tenant user reads the groups of its entities' profile form only: pass form=${forms.join(' or form=')}.`,
          );
        }
      }
      const options = { roles: user.roles, hasEditPermission, showValidationSummary };
      let html: string | undefined;
      if (form === undefined) {
        html = renderCatalogueGroup(await catalogueGroupFields(db, group), group, options);
        if (html === undefined) throw notFound(`No field is in the group ${group}.`);
      } else {
        const definition = await findFormDefinition(db, { name: form });
        if (!definition) throw notFound(`Form ${form} not found.`);
        html = renderFormGroup(definition, group, options, false);
        if (html === undefined) throw notFound(`Form ${form} has no group ${group}.`);
      }
      return sendHtml(reply, html);
    },
  });

  const routes = featureRoutes(app, { tags: ['form usage'], allow: STAFF_AND_TENANTS });
  routes.answer(formUsageApi.tenantProfile, {
    summary:
      "A tenant's profile (staff only): its stored values (metadata), the profile form EditTenantProfile and its groups; 404 unknown",
    params: tenantProfileParamsSchema,
    response: profileSchema,
    errors: [404],
    handle: ({ user, params }) => readProfile(db, user, { target: 'Tenant', tenantId: params.id }),
  });
  routes.answer(formUsageApi.entityProfile, {
    summary:
      "An entity's profile: its stored values (metadata), the profile form EditEntityProfile and its groups; 404 unknown or another tenant's",
    params: entityProfileParamsSchema,
    response: profileSchema,
    errors: [404],
    handle: ({ user, params }) => readProfile(db, user, { target: 'Entity', entityId: params.id }),
  });

  const tenantFileParams = tenantProfileParamsSchema.extend(profileFileParamsSchema.shape);
  const entityFileParams = entityProfileParamsSchema.extend(profileFileParamsSchema.shape);
  const fileRoute = (
    api: typeof formUsageApi.tenantFile | typeof formUsageApi.entityFile,
    params: typeof tenantFileParams | typeof entityFileParams,
    keyOf: (params: { id: number | string }) => ProfileKey,
  ) =>
    app.route({
      method: api.method,
      url: api.path,
      config: { allow: STAFF_AND_TENANTS },
      schema: {
        tags: ['form usage'],
        summary:
          'The file of a FileUpload field of a profile, as an attachment; 404 when there is none or the caller may not see it',
        params,
        response: { 200: fileResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        const { field, ...rest } = request.params as { field: string; id: number | string };
        const file = await readProfileFile(db, currentUser(request), keyOf(rest), field);
        return reply
          .type(file.contentType)
          .header('content-disposition', contentDisposition(file.fileName))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "sandbox; default-src 'none'")
          .header('cache-control', 'private, no-store')
          .send(file.content);
      },
    });
  fileRoute(formUsageApi.tenantFile, tenantFileParams, ({ id }) => ({
    target: 'Tenant',
    tenantId: id as number,
  }));
  fileRoute(formUsageApi.entityFile, entityFileParams, ({ id }) => ({
    target: 'Entity',
    entityId: id as string,
  }));

  // The profile submission reads multipart bodies: the parser is registered in this scope only.
  void app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: PROFILE_MULTIPART_LIMITS,
      throwFileSizeLimit: true,
    });
    scope.route({
      method: formUsageApi.submit.method,
      url: formUsageApi.submit.path,
      config: { allow: STAFF_AND_TENANTS },
      schema: {
        tags: ['form usage'],
        summary:
          'Save a profile (multipart: Target, TenantId or EntityId, FormData as JSON, a DataObject.<storage name> part per file); 400 {title, errors} by label',
        consumes: ['multipart/form-data'],
        body: profileSubmitPartsSchema,
        response: {
          200: profileSubmitResultSchema,
          ...errorResponses(401, 403, 404, 413, 415),
          400: submitRefusal,
        },
      },
      // The parts are read before validation: the text parts become the body the schema checks.
      preValidation: async (request) => {
        if (!request.isMultipart()) {
          const message =
            'Send the profile as multipart/form-data: Target, TenantId or EntityId, FormData and the files.';
          throw new HttpError(415, message, { errors: [{ path: 'content-type', message }] });
        }
        const parts = await readProfileParts(request);
        request.body = parts.text;
        uploadedFiles.set(request, parts.files);
      },
      handler: async (request, reply) => {
        const parts = request.body as ProfileSubmitParts;
        const key: ProfileKey =
          parts.target === 'Tenant'
            ? { target: 'Tenant', tenantId: parts.tenantId }
            : { target: 'Entity', entityId: parts.entityId };
        const outcome = await submitProfile(db, currentUser(request), {
          key,
          values: parts.values,
          files: uploadedFiles.get(request) ?? [],
        });
        return answerSubmission(reply, outcome, PROFILE_SAVED_MESSAGE);
      },
    });
  });
}
