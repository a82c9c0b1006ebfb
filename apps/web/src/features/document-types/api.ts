/**
 * The document types calls (spec part 1, section 7) with their query keys, and the texts of a
 * failed delete (section 8).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  apiPath,
  type DocumentType,
  type DocumentTypeChoice,
  documentTypeChoiceListSchema,
  type DocumentTypeCreate,
  type DocumentTypeImportRecord,
  documentTypeListSchema,
  documentTypesApi,
  documentTypeSchema,
  type DocumentTypeUpdate,
  type ImportResult,
  importResultSchema,
  usedNamesSchema,
} from '@console/contracts';
import { ApiError, api, apiErrorMessage, getParsed } from '@/lib/api-client';
import { useInvalidatingMutation } from '@/lib/invalidating-mutation';

export const documentTypesQueryKeys = {
  /** Every query of this feature: what a write makes stale. */
  all: ['documentTypes'] as const,
  list: ['documentTypes', 'list'] as const,
  choices: ['documentTypes', 'choices'] as const,
  usedTags: ['documentTypes', 'usedTags'] as const,
  usedApiServiceNames: ['documentTypes', 'usedApiServiceNames'] as const,
};

export async function fetchDocumentTypes(signal?: AbortSignal): Promise<DocumentType[]> {
  return getParsed(documentTypeListSchema, apiPath(documentTypesApi.list), signal);
}

/**
 * GET api/documenttypes read as the choices of the forms' DocumentType fields: what a tenant user
 * is answered, and the same fields of a staff member's records.
 */
export async function fetchDocumentTypeChoices(
  signal?: AbortSignal,
): Promise<DocumentTypeChoice[]> {
  return getParsed(documentTypeChoiceListSchema, apiPath(documentTypesApi.list), signal);
}

export async function fetchUsedTags(signal?: AbortSignal): Promise<string[]> {
  return getParsed(usedNamesSchema, apiPath(documentTypesApi.usedTags), signal);
}

export async function fetchUsedApiServiceNames(signal?: AbortSignal): Promise<string[]> {
  return getParsed(usedNamesSchema, apiPath(documentTypesApi.usedApiServiceNames), signal);
}

export async function createDocumentType(body: DocumentTypeCreate): Promise<DocumentType> {
  return documentTypeSchema.parse(await api.post<unknown>(apiPath(documentTypesApi.create), body));
}

export async function updateDocumentType(
  id: string,
  body: DocumentTypeUpdate,
): Promise<DocumentType> {
  return documentTypeSchema.parse(
    await api.put<unknown>(apiPath(documentTypesApi.update, { id }), body),
  );
}

/**
 * DELETE api/documenttypes/{id} (admins). A refusal is the screen's to explain, so the 403 of a
 * staff member shows the access-denied text instead of signing out (skipAuthRedirect).
 */
export function deleteDocumentType(id: string): Promise<void> {
  return api.delete(apiPath(documentTypesApi.delete, { id }), { skipAuthRedirect: true });
}

export async function importDocumentTypes(
  records: DocumentTypeImportRecord[],
): Promise<ImportResult> {
  return importResultSchema.parse(
    await api.post<unknown>(apiPath(documentTypesApi.import), records),
  );
}

export function useDocumentTypesQuery() {
  return useQuery({
    queryKey: documentTypesQueryKeys.list,
    queryFn: ({ signal }) => fetchDocumentTypes(signal),
  });
}

export function useUsedTagsQuery() {
  return useQuery({
    queryKey: documentTypesQueryKeys.usedTags,
    queryFn: ({ signal }) => fetchUsedTags(signal),
  });
}

export function useUsedApiServiceNamesQuery() {
  return useQuery({
    queryKey: documentTypesQueryKeys.usedApiServiceNames,
    queryFn: ({ signal }) => fetchUsedApiServiceNames(signal),
  });
}

/** Create (no `id` given) or update the document type `id`; the lists reload afterwards. */
export function useSaveDocumentTypeMutation(id: string | undefined) {
  return useInvalidatingMutation(
    (body: DocumentTypeCreate) =>
      id === undefined ? createDocumentType(body) : updateDocumentType(id, body),
    documentTypesQueryKeys.all,
  );
}

export function useDeleteDocumentTypeMutation() {
  return useMutation({
    mutationFn: (documentType: DocumentType) => deleteDocumentType(documentType.id),
  });
}

export function useImportDocumentTypesMutation() {
  return useInvalidatingMutation(importDocumentTypes, documentTypesQueryKeys.all);
}

/** What a failed document type delete says (spec 8, "Delete document type"). */
export function deleteDocumentTypeErrorText(
  error: unknown,
  documentType: Pick<DocumentType, 'id'>,
  t: TFunction,
): string {
  const { id } = documentType;
  switch (error instanceof ApiError ? error.status : undefined) {
    case 403:
      return t('documentTypes.deleteErrors.accessDenied');
    case 404:
      return t('documentTypes.deleteErrors.notFound', { id });
    case 409:
      return t('documentTypes.deleteErrors.inUse', { id });
    default:
      return t('documentTypes.deleteErrors.failed', { message: apiErrorMessage(error) });
  }
}
