/**
 * The form fields calls (spec part 2, section 7, "Form fields") with their query keys. The forms
 * screen reads the catalogue too, to pick a form's fields.
 */
import { useQuery } from '@tanstack/react-query';
import {
  apiPath,
  type FormField,
  formFieldListSchema,
  formFieldsApi,
  usedNamesSchema,
} from '@console/contracts';
import { getParsed } from '@/lib/api-client';

export const formFieldsQueryKeys = {
  /** Every query of this feature: what a write makes stale. */
  all: ['formFields'] as const,
  list: ['formFields', 'list'] as const,
  usedTags: ['formFields', 'usedTags'] as const,
  usedApiServiceNames: ['formFields', 'usedApiServiceNames'] as const,
};

export async function fetchFormFields(signal?: AbortSignal): Promise<FormField[]> {
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
