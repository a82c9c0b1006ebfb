/** The entities call of the tenant portal (spec part 1, section 7), with its query keys. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiPath, entitiesApi, type EntityPage, entityPageSchema } from '@console/contracts';
import { getParsed } from '@/lib/api-client';
import { offsetPageQuery, type OffsetPageRequest } from '@/lib/paging';

export const entitiesQueryKeys = {
  all: ['entities'] as const,
  page: (request: OffsetPageRequest) => ['entities', 'page', request] as const,
};

/** GET api/Entity?offset&limit: one page, and the total. */
export async function fetchEntities(
  request: OffsetPageRequest,
  signal?: AbortSignal,
): Promise<EntityPage> {
  return getParsed(
    entityPageSchema,
    `${apiPath(entitiesApi.list)}?${offsetPageQuery(request)}`,
    signal,
  );
}

export function useEntitiesQuery(request: OffsetPageRequest) {
  return useQuery({
    queryKey: entitiesQueryKeys.page(request),
    queryFn: ({ signal }) => fetchEntities(request, signal),
    // The page shown stays until the next one has arrived.
    placeholderData: keepPreviousData,
  });
}
