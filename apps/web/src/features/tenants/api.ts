/**
 * The tenants calls (spec part 1, section 7, "Tenants and tenant users") with their query keys,
 * and the text of a failed delete.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  apiPath,
  type Tenant,
  tenantListSchema,
  tenantsApi,
  tenantSchema,
  type TenantWrite,
} from '@console/contracts';
import { ApiError, api, apiErrorMessage, getParsed } from '@/lib/api-client';
import { useInvalidatingMutation } from '@/lib/invalidating-mutation';

export const tenantsQueryKeys = {
  /** Every query of this feature: what a write makes stale. */
  all: ['tenants'] as const,
  list: ['tenants', 'list'] as const,
};

export async function fetchTenants(signal?: AbortSignal): Promise<Tenant[]> {
  return getParsed(tenantListSchema, apiPath(tenantsApi.list), signal);
}

export async function createTenant(body: TenantWrite): Promise<Tenant> {
  return tenantSchema.parse(await api.post<unknown>(apiPath(tenantsApi.create), body));
}

export async function updateTenant(id: number, body: TenantWrite): Promise<Tenant> {
  return tenantSchema.parse(await api.put<unknown>(apiPath(tenantsApi.update, { id }), body));
}

export function deleteTenant(id: number): Promise<void> {
  return api.delete(apiPath(tenantsApi.delete, { id }), { skipAuthRedirect: true });
}

export function useTenantsQuery() {
  return useQuery({
    queryKey: tenantsQueryKeys.list,
    queryFn: ({ signal }) => fetchTenants(signal),
  });
}

/** Create (no `id` given) or update the tenant `id`; the lists reload afterwards. */
export function useSaveTenantMutation(id: number | undefined) {
  return useInvalidatingMutation(
    (body: TenantWrite) => (id === undefined ? createTenant(body) : updateTenant(id, body)),
    // Tenant users and entities show the company name: they are stale too.
    tenantsQueryKeys.all,
  );
}

export function useDeleteTenantMutation() {
  return useMutation({ mutationFn: (tenant: Tenant) => deleteTenant(tenant.id) });
}

/**
 * What a failed tenant delete says. The spec gives no texts: a 409 (users or entities still
 * belong to it) and a 404 carry the server's own sentence, which names what is in the way.
 */
export function deleteTenantErrorText(error: unknown, t: TFunction): string {
  const status = error instanceof ApiError ? error.status : undefined;
  if ((status === 409 || status === 404) && hasServerMessage(error)) {
    return apiErrorMessage(error);
  }
  if (status === 403) return t('tenants.deleteErrors.accessDenied');
  return t('tenants.deleteErrors.failed', { message: apiErrorMessage(error) });
}

function hasServerMessage(error: unknown): boolean {
  return apiErrorMessage(error) !== (error as Error).message;
}
