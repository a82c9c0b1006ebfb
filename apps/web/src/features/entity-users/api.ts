/**
 * The entity users calls of the tenant portal (spec part 1, section 7) with their query keys:
 * one page of users with their keys, and deleting one key of a user (admins), which removes the
 * key from the screen at once and reloads the list if the call fails (spec 4).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  apiPath,
  type EntityUserPage,
  entityUserPageSchema,
  entityUsersApi,
} from '@console/contracts';
import { ApiError, api, apiErrorMessage, getParsed } from '@/lib/api-client';
import { offsetPageQuery, type OffsetPageRequest } from '@/lib/paging';

export const entityUsersQueryKeys = {
  all: ['entityUsers'] as const,
  page: (request: OffsetPageRequest) => ['entityUsers', 'page', request] as const,
};

/** GET api/EntityUser?offset&limit: one page, and the total. */
export async function fetchEntityUsers(
  request: OffsetPageRequest,
  signal?: AbortSignal,
): Promise<EntityUserPage> {
  return getParsed(
    entityUserPageSchema,
    `${apiPath(entityUsersApi.list)}?${offsetPageQuery(request)}`,
    signal,
  );
}

/**
 * DELETE api/EntityUser/{userId}/keys/{keyName}, the key name URL-encoded (admins). A refusal is
 * the screen's to explain, so the 403 of a staff member shows its message instead of signing out.
 */
export function deleteEntityUserKey(userId: string, keyName: string): Promise<void> {
  return api.delete(apiPath(entityUsersApi.deleteKey, { userId, keyName }), {
    skipAuthRedirect: true,
  });
}

export function useEntityUsersQuery(request: OffsetPageRequest) {
  return useQuery({
    queryKey: entityUsersQueryKeys.page(request),
    queryFn: ({ signal }) => fetchEntityUsers(request, signal),
    placeholderData: keepPreviousData,
  });
}

export interface KeyDeletion {
  userId: string;
  keyName: string;
}

/** The page without the key: what the screen shows while the deletion runs. */
export function withoutKey(page: EntityUserPage, { userId, keyName }: KeyDeletion): EntityUserPage {
  return {
    ...page,
    data: page.data.map((user) => {
      if (user.partyUserId !== userId || !Object.hasOwn(user.keys, keyName)) return user;
      const keys = { ...user.keys };
      delete keys[keyName];
      return { ...user, keys };
    }),
  };
}

/**
 * Deletes a key optimistically (spec 4): the key leaves every loaded page at once; if the call
 * fails, the list is reloaded from the server.
 */
export function useDeleteEntityUserKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, keyName }: KeyDeletion) => deleteEntityUserKey(userId, keyName),
    onMutate: async (deletion) => {
      // A load under way would bring the key back.
      await queryClient.cancelQueries({ queryKey: entityUsersQueryKeys.all });
      queryClient.setQueriesData<EntityUserPage>({ queryKey: entityUsersQueryKeys.all }, (page) =>
        page ? withoutKey(page, deletion) : page,
      );
    },
    onError: () => queryClient.invalidateQueries({ queryKey: entityUsersQueryKeys.all }),
  });
}

/** What a failed key deletion says (spec 8, "Delete entity-user key"). */
export function deleteKeyErrorText(error: unknown, t: TFunction): string {
  if (!(error instanceof ApiError)) return t('entityUsers.deleteKeyErrors.unexpected');
  switch (error.status) {
    case 403:
      return t('entityUsers.deleteKeyErrors.forbidden');
    case 404:
      return t('entityUsers.deleteKeyErrors.notFound');
    default:
      return t('entityUsers.deleteKeyErrors.failed', { message: apiErrorMessage(error) });
  }
}
