/**
 * The audit log call (issue 31) and its filters as they live in the screen's URL, so that a
 * link reproduces the view: the URL's query names are the API's own.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  apiPath,
  auditApi,
  auditListSchema,
  type AuditList,
  type PageSize,
} from '@console/contracts';
import { getParsed } from '@/lib/api-client';
import { setCursorParams, type PageCursor } from '@/lib/paging';

/** The filters of the screen, each blank when not set. */
export const AUDIT_FILTER_NAMES = [
  'actor',
  'action',
  'targetType',
  'targetId',
  'tenantId',
  'from',
  'to',
  'q',
] as const;
export type AuditFilterName = (typeof AUDIT_FILTER_NAMES)[number];
export type AuditFilters = Record<AuditFilterName, string>;

/** The filters a URL's query holds (anything else in it is ignored). */
export function auditFiltersFrom(params: URLSearchParams): AuditFilters {
  const filters = {} as AuditFilters;
  for (const name of AUDIT_FILTER_NAMES) filters[name] = params.get(name)?.trim() ?? '';
  return filters;
}

/** The query of the filters set, in a fixed order; blank ones are left out. */
export function auditFilterParams(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of AUDIT_FILTER_NAMES) {
    const value = filters[name].trim();
    if (value !== '') params.set(name, value);
  }
  return params;
}

export interface AuditRequest {
  page: number;
  pageSize: PageSize;
  filters: AuditFilters;
  /** Previous / Next: the row the page steps from. */
  cursor: PageCursor;
}

export const auditQueryKey = ['audit'] as const;

export async function fetchAudit(request: AuditRequest, signal?: AbortSignal): Promise<AuditList> {
  const params = auditFilterParams(request.filters);
  params.set('page', String(request.page));
  params.set('pageSize', String(request.pageSize));
  setCursorParams(params, request.cursor);
  return getParsed(auditListSchema, `${apiPath(auditApi.list)}?${params.toString()}`, signal);
}

export function useAuditQuery(request: AuditRequest) {
  return useQuery({
    queryKey: [...auditQueryKey, request],
    queryFn: ({ signal }) => fetchAudit(request, signal),
    // The page on screen stays while the next one (or the next filter) loads.
    placeholderData: keepPreviousData,
  });
}
