/**
 * The forms service calls of the forms screens (spec part 2, section 7, "Forms service") with
 * their query keys, and the texts of their failures (section 8, "Forms"). The document types
 * screen reads the list too, to find each document type's expected form.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  apiPath,
  type FormDefinition,
  type FormDefinitionCreate,
  formDefinitionSchema,
  type FormDefinitionUpdate,
  type FormListItem,
  formListSchema,
  formSavedSchema,
  formsApi,
} from '@console/contracts';
import {
  AccessTokenMissingError,
  ApiError,
  api,
  getParsed,
  requireAccessToken,
  serverMessage,
} from '@/lib/api-client';
import { useInvalidatingMutation } from '@/lib/invalidating-mutation';

export const formsQueryKeys = {
  /** Every query of this feature: what a write makes stale. */
  all: ['forms'] as const,
  list: ['forms', 'list'] as const,
  definition: (name: string) => ['forms', 'definition', name] as const,
};

export async function fetchFormList(signal?: AbortSignal): Promise<FormListItem[]> {
  requireAccessToken();
  return getParsed(formListSchema, apiPath(formsApi.list), signal);
}

export async function fetchFormDefinition(
  name: string,
  signal?: AbortSignal,
): Promise<FormDefinition> {
  requireAccessToken();
  return getParsed(formDefinitionSchema, apiPath(formsApi.definition, { name }), signal);
}

/** POST /svc/formauthoring: a new form (or a clone, without id); answers its name. */
export async function createForm(body: FormDefinitionCreate): Promise<string> {
  requireAccessToken();
  return formSavedSchema.parse(await api.post<unknown>(apiPath(formsApi.create), body)).name;
}

/** PUT /svc/formauthoring/{name}: the definition of the form `name` (its name is locked). */
export async function updateForm(name: string, body: FormDefinitionUpdate): Promise<string> {
  requireAccessToken();
  return formSavedSchema.parse(await api.put<unknown>(apiPath(formsApi.update, { name }), body))
    .name;
}

/**
 * DELETE /svc/formauthoring/{name}. The API client reads a failure's body as text and parses it
 * (spec 7); its `message` is what the screen shows.
 */
export async function deleteForm(name: string): Promise<void> {
  requireAccessToken();
  await api.delete(apiPath(formsApi.delete, { name }));
}

export function useFormListQuery() {
  return useQuery({
    queryKey: formsQueryKeys.list,
    queryFn: ({ signal }) => fetchFormList(signal),
  });
}

/** The definition of the form `name`; nothing is loaded while `name` is null. */
export function useFormDefinitionQuery(name: string | null) {
  return useQuery({
    queryKey: formsQueryKeys.definition(name ?? ''),
    queryFn: ({ signal }) => fetchFormDefinition(name ?? '', signal),
    enabled: name !== null,
  });
}

/**
 * Creates a form (`name` null: create and clone) or updates the form `name`; the list and the
 * definitions reload afterwards.
 */
export function useSaveFormMutation(name: string | null) {
  return useInvalidatingMutation(
    (body: FormDefinitionUpdate) =>
      // A new form has no id (spec 7: "id removed for clones").
      name === null ? createForm({ ...body, id: undefined }) : updateForm(name, body),
    formsQueryKeys.all,
  );
}

/** Deletes a form of the list; `onSuccess` / `onError` tell the screen the outcome. */
export function useDeleteFormMutation(callbacks: {
  onSuccess: (form: FormListItem) => void;
  onError: (error: unknown, form: FormListItem) => void;
}) {
  return useMutation({
    mutationFn: (form: FormListItem) => deleteForm(form.name),
    onSuccess: (_answer, form) => callbacks.onSuccess(form),
    onError: (error, form) => callbacks.onError(error, form),
  });
}

/**
 * What a failed forms call says (spec 8, "Forms"): the server's message if present, else
 * "Failed to ..." with the status (`failed`); a missing token says so; a call that reached no
 * server says why.
 */
export function formsErrorText(error: unknown, failed: (status: number | string) => string) {
  if (error instanceof AccessTokenMissingError) return error.message;
  const message = serverMessage(error);
  if (message !== undefined) return message;
  if (error instanceof ApiError && error.status === undefined) return error.message;
  return failed(error instanceof ApiError ? (error.status ?? 'N/A') : 'N/A');
}
