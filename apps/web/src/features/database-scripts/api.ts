/**
 * The Database Scripts calls (spec part 2, section 7) with their query keys, and the texts of
 * their failures (section 8).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  apiPath,
  databaseScriptListSchema,
  databaseScriptsApi,
  scriptExecutionResultSchema,
  scriptHistoryPageSchema,
  type DatabaseScriptList,
  type Page,
  type ScriptExecution,
  type ScriptExecutionResult,
} from '@console/contracts';
import { ApiError, api, getParsed } from '@/lib/api-client';
import { useInvalidatingMutation } from '@/lib/invalidating-mutation';
import { offsetPageQuery, type OffsetPageRequest } from '@/lib/paging';

export const databaseScriptsQueryKey = ['database-scripts'] as const;

export function fetchScripts(signal?: AbortSignal): Promise<DatabaseScriptList> {
  return getParsed(databaseScriptListSchema, apiPath(databaseScriptsApi.list), signal);
}

export function fetchHistory(
  request: OffsetPageRequest,
  signal?: AbortSignal,
): Promise<Page<ScriptExecution>> {
  const path = `${apiPath(databaseScriptsApi.history)}?${offsetPageQuery(request)}`;
  return getParsed(scriptHistoryPageSchema, path, signal);
}

/** POST api/database-scripts/execute/{id}: the script is named by id only, never sent. */
export async function executeScript(id: number): Promise<ScriptExecutionResult> {
  const answer = await api.post<unknown>(apiPath(databaseScriptsApi.execute, { id }), undefined, {
    skipAuthRedirect: true,
  });
  return scriptExecutionResultSchema.parse(answer);
}

export function useScriptsQuery() {
  return useQuery({
    queryKey: [...databaseScriptsQueryKey, 'list'],
    queryFn: ({ signal }) => fetchScripts(signal),
  });
}

export function useHistoryQuery(request: OffsetPageRequest) {
  return useQuery({
    queryKey: [...databaseScriptsQueryKey, 'history', request],
    queryFn: ({ signal }) => fetchHistory(request, signal),
    placeholderData: keepPreviousData,
  });
}

/** Success or failure, the history reloads: the execution is in it either way. */
export function useExecuteScriptMutation() {
  return useInvalidatingMutation(executeScript, databaseScriptsQueryKey);
}

/** Spec 8: 'Failed to fetch database scripts: {status}'. */
export function scriptsErrorText(error: unknown, t: TFunction): string {
  const status = error instanceof ApiError ? (error.status ?? 'N/A') : 'N/A';
  return t('databaseScripts.fetchFailed', { status });
}

/** Spec 8: a call that failed over HTTP says 'HTTP error! status: {status}'. */
export function executeErrorText(error: unknown, t: TFunction): string {
  return error instanceof ApiError && error.status !== undefined
    ? t('databaseScripts.httpError', { status: error.status })
    : t('databaseScripts.failed');
}
