/**
 * The form fields calls (spec part 2, section 7, "Form fields") with their query keys, and the
 * texts of their failures (section 8, "Fields"). Every call needs the bearer token: without one
 * it fails before it is sent ('Authentication token not found.', sections 5 and 8). The forms
 * screen reads the catalogue too, to pick a form's fields.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  apiPath,
  type FormField,
  type FormFieldCreate,
  formFieldListSchema,
  formFieldSchema,
  formFieldsApi,
  type FormFieldUpdate,
  usedNamesSchema,
} from '@console/contracts';
import {
  AccessTokenMissingError,
  ApiError,
  api,
  getParsed,
  requireAccessToken,
} from '@/lib/api-client';
import { useInvalidatingMutation } from '@/lib/invalidating-mutation';

export const formFieldsQueryKeys = {
  /** Every query of this feature: what a write makes stale. */
  all: ['formFields'] as const,
  list: ['formFields', 'list'] as const,
  usedTags: ['formFields', 'usedTags'] as const,
  usedApiServiceNames: ['formFields', 'usedApiServiceNames'] as const,
};

export async function fetchFormFields(signal?: AbortSignal): Promise<FormField[]> {
  requireAccessToken();
  return getParsed(formFieldListSchema, apiPath(formFieldsApi.list), signal);
}

export function useFormFieldsQuery() {
  return useQuery({
    queryKey: formFieldsQueryKeys.list,
    queryFn: ({ signal }) => fetchFormFields(signal),
  });
}

export function useUsedFieldTagsQuery() {
  return useQuery({
    queryKey: formFieldsQueryKeys.usedTags,
    queryFn: ({ signal }) => getParsed(usedNamesSchema, apiPath(formFieldsApi.usedTags), signal),
  });
}

export function useUsedFieldApiServiceNamesQuery() {
  return useQuery({
    queryKey: formFieldsQueryKeys.usedApiServiceNames,
    queryFn: ({ signal }) =>
      getParsed(usedNamesSchema, apiPath(formFieldsApi.usedApiServiceNames), signal),
  });
}

/** POST: a new field (created or cloned), without id. */
export async function createFormField(body: FormFieldCreate): Promise<FormField> {
  requireAccessToken();
  return formFieldSchema.parse(await api.post<unknown>(apiPath(formFieldsApi.create), body));
}

/**
 * PUT the field `id`. The server refuses a staff member's rename of a valid storage name with a
 * 403 whose message the dialog shows, so that refusal keeps the session (skipAuthRedirect).
 */
export async function updateFormField(id: number, body: FormFieldUpdate): Promise<FormField> {
  requireAccessToken();
  const answer = await api.put<unknown>(apiPath(formFieldsApi.update, { id }), body, {
    skipAuthRedirect: true,
  });
  return formFieldSchema.parse(answer);
}

/** DELETE the field; 204 is success. */
export async function deleteFormField(id: number): Promise<void> {
  requireAccessToken();
  await api.delete(apiPath(formFieldsApi.delete, { id }));
}

/** Create (no `id`: a new field or a clone) or update the field `id`; the lists reload after. */
export function useSaveFormFieldMutation(id: number | undefined) {
  return useInvalidatingMutation(
    (body: FormFieldCreate) =>
      id === undefined ? createFormField(body) : updateFormField(id, { ...body, id }),
    formFieldsQueryKeys.all,
  );
}

export function useDeleteFormFieldMutation() {
  return useMutation({ mutationFn: (field: FormField) => deleteFormField(field.id) });
}

export type FormFieldCall = 'fetch' | 'create' | 'update' | 'delete';

/**
 * What a failed call says (spec 8, "Fields"): 'Failed to {call} form field(s): {status}', or
 * 'Authentication token not found.' when there was no token to send.
 */
export function formFieldErrorText(call: FormFieldCall, error: unknown, t: TFunction): string {
  if (error instanceof AccessTokenMissingError) return t('formFields.errors.tokenMissing');
  const status = error instanceof ApiError ? (error.status ?? 'N/A') : 'N/A';
  return t(`formFields.errors.${call}Failed`, { status });
}
