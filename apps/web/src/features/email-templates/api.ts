/**
 * The email template calls (spec part 2, section 7, "Email templates") with their query keys,
 * and the pickers' calls (tenants, entities).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  apiPath,
  emailTemplateCreatedSchema,
  emailTemplateListSchema,
  emailTemplatePreviewSchema,
  emailTemplateSchema,
  emailTemplatesApi,
  emailTemplateTestSendResultSchema,
  emailTemplateVersionCreatedSchema,
  entitiesApi,
  entityPageSchema,
  LIST_LIMIT_MAX,
  tenantListSchema,
  tenantsApi,
  type EmailTemplateCreateInput,
  type EmailTemplateListItem,
  type EmailTemplatePreview,
  type EmailTemplatePreviewRequest,
  type EmailTemplateTestSend,
  type EmailTemplateUpdateInput,
  type EmailTemplateVersionCreated,
  type EmailTemplateVersionCreateInput,
} from '@console/contracts';
import { api, getParsed } from '@/lib/api-client';

export const emailTemplatesQueryKeys = {
  all: ['email-templates'] as const,
  list: ['email-templates', 'list'] as const,
  one: (id: number) => ['email-templates', 'one', id] as const,
  preview: (request: EmailTemplatePreviewRequest) =>
    ['email-templates', 'preview', request] as const,
};

export function useEmailTemplatesQuery() {
  return useQuery({
    queryKey: emailTemplatesQueryKeys.list,
    queryFn: ({ signal }) =>
      getParsed(emailTemplateListSchema, apiPath(emailTemplatesApi.list), signal),
  });
}

export function useEmailTemplateQuery(id: number | null) {
  return useQuery({
    queryKey: emailTemplatesQueryKeys.one(id ?? 0),
    queryFn: ({ signal }) =>
      getParsed(emailTemplateSchema, apiPath(emailTemplatesApi.get, { id: id ?? 0 }), signal),
    enabled: id !== null,
  });
}

export function useDeleteEmailTemplateMutation() {
  return useMutation({
    mutationFn: (template: EmailTemplateListItem) =>
      api.delete(apiPath(emailTemplatesApi.delete, { id: template.id })),
  });
}

export async function createEmailTemplate(body: EmailTemplateCreateInput): Promise<number> {
  return emailTemplateCreatedSchema.parse(
    await api.post<unknown>(apiPath(emailTemplatesApi.create), body),
  ).id;
}

export async function updateEmailTemplate(
  id: number,
  body: EmailTemplateUpdateInput,
): Promise<void> {
  await api.put<unknown>(apiPath(emailTemplatesApi.update, { id }), body);
}

export async function createEmailTemplateVersion(
  id: number,
  body: EmailTemplateVersionCreateInput,
): Promise<EmailTemplateVersionCreated> {
  return emailTemplateVersionCreatedSchema.parse(
    await api.post<unknown>(apiPath(emailTemplatesApi.createVersion, { id }), body),
  );
}

export async function previewEmailTemplate(
  body: EmailTemplatePreviewRequest,
  signal?: AbortSignal,
): Promise<EmailTemplatePreview> {
  return emailTemplatePreviewSchema.parse(
    await api.post<unknown>(apiPath(emailTemplatesApi.preview), body, { signal }),
  );
}

export async function sendTestEmail(body: EmailTemplateTestSend) {
  return emailTemplateTestSendResultSchema.parse(
    await api.post<unknown>(apiPath(emailTemplatesApi.testSend), body),
  );
}

/** Tenant choices (id, companyName, domicileCountryName) for the tenant picker. */
export function useTenantChoicesQuery() {
  return useQuery({
    queryKey: ['tenants', 'list'],
    queryFn: ({ signal }) => getParsed(tenantListSchema, apiPath(tenantsApi.list), signal),
  });
}

/** Entity choices (partyEntityId, names.names.entityName) of one tenant, for the entity picker. */
export function useEntityChoicesQuery(tenantId: number | null) {
  return useQuery({
    queryKey: ['entities', 'choices', tenantId],
    queryFn: ({ signal }) =>
      getParsed(
        entityPageSchema,
        `${apiPath(entitiesApi.list)}?offset=0&limit=${LIST_LIMIT_MAX}&tenantId=${tenantId ?? 0}`,
        signal,
      ),
    enabled: tenantId !== null,
  });
}
