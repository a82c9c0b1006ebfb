/**
 * The tenant users calls (spec part 1, section 7, "Tenants and tenant users") with their query
 * keys, and the text of a failed delete.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  apiPath,
  type TenantUser,
  type TenantUserCreate,
  tenantUserListSchema,
  tenantUsersApi,
  tenantUserSchema,
} from '@console/contracts';
import { ApiError, api, apiErrorMessage, getParsed } from '@/lib/api-client';
import { useInvalidatingMutation } from '@/lib/invalidating-mutation';

export const tenantUsersQueryKeys = {
  all: ['tenantUsers'] as const,
  list: ['tenantUsers', 'list'] as const,
};

export async function fetchTenantUsers(signal?: AbortSignal): Promise<TenantUser[]> {
  return getParsed(tenantUserListSchema, apiPath(tenantUsersApi.list), signal);
}

export async function createTenantUser(body: TenantUserCreate): Promise<TenantUser> {
  return tenantUserSchema.parse(await api.post<unknown>(apiPath(tenantUsersApi.create), body));
}

export function deleteTenantUser(id: number): Promise<void> {
  return api.delete(apiPath(tenantUsersApi.delete, { id }), { skipAuthRedirect: true });
}

export function useTenantUsersQuery() {
  return useQuery({
    queryKey: tenantUsersQueryKeys.list,
    queryFn: ({ signal }) => fetchTenantUsers(signal),
  });
}

export function useCreateTenantUserMutation() {
  return useInvalidatingMutation(createTenantUser, tenantUsersQueryKeys.all);
}

export function useDeleteTenantUserMutation() {
  return useMutation({ mutationFn: (tenantUser: TenantUser) => deleteTenantUser(tenantUser.id) });
}

/** What a failed tenant user delete says (the spec gives no text: the server's reason). */
export function deleteTenantUserErrorText(error: unknown, t: TFunction): string {
  if (error instanceof ApiError && error.status === 403) {
    return t('tenantUsers.deleteErrors.accessDenied');
  }
  if (error instanceof ApiError && error.status === 404) {
    return t('tenantUsers.deleteErrors.notFound');
  }
  return t('tenantUsers.deleteErrors.failed', { message: apiErrorMessage(error) });
}
