/**
 * The forms service calls of the forms screens (spec part 2, section 7, "Forms service") with
 * their query keys. The document types screen reads the list too, to find each document type's
 * expected form.
 */
import { useQuery } from '@tanstack/react-query';
import {
  apiPath,
  type FormDefinition,
  formDefinitionSchema,
  type FormListItem,
  formListSchema,
  formsApi,
} from '@console/contracts';
import { getParsed } from '@/lib/api-client';

export const formsQueryKeys = {
  /** Every query of this feature: what a write makes stale. */
  all: ['forms'] as const,
  list: ['forms', 'list'] as const,
  definition: (name: string) => ['forms', 'definition', name] as const,
};

export async function fetchFormList(signal?: AbortSignal): Promise<FormListItem[]> {
  return getParsed(formListSchema, apiPath(formsApi.list), signal);
}

export async function fetchFormDefinition(
  name: string,
  signal?: AbortSignal,
): Promise<FormDefinition> {
  return getParsed(formDefinitionSchema, apiPath(formsApi.definition, { name }), signal);
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
