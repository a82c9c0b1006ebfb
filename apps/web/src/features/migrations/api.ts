/**
 * The Database Migrations calls (spec part 2, section 7) with their query key, and the texts of
 * their failures (section 8).
 */
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  apiPath,
  migrationResultSchema,
  migrationsApi,
  migrationStatusSchema,
  seedResultSchema,
  type MigrationResult,
  type MigrationStatus,
  type SeedResult,
} from '@console/contracts';
import { ApiError, api, getParsed } from '@/lib/api-client';
import { useInvalidatingMutation } from '@/lib/invalidating-mutation';

export const migrationsQueryKey = ['migrations'] as const;

export function fetchMigrationStatus(signal?: AbortSignal): Promise<MigrationStatus> {
  return getParsed(migrationStatusSchema, apiPath(migrationsApi.status), signal);
}

/** POST svc/migrations/apply/{version}. A refusal is shown on the screen (skipAuthRedirect). */
export async function applyMigrations(version: number): Promise<MigrationResult> {
  const answer = await api.post<unknown>(apiPath(migrationsApi.apply, { version }), undefined, {
    skipAuthRedirect: true,
  });
  return migrationResultSchema.parse(answer);
}

export async function applySeedData(): Promise<SeedResult> {
  const answer = await api.post<unknown>(apiPath(migrationsApi.seed), undefined, {
    skipAuthRedirect: true,
  });
  return seedResultSchema.parse(answer);
}

export function useMigrationStatusQuery() {
  return useQuery({
    queryKey: migrationsQueryKey,
    queryFn: ({ signal }) => fetchMigrationStatus(signal),
  });
}

/** Success or failure, the status reloads (a failed migration may have applied the ones before). */
export function useApplyMigrationsMutation() {
  return useInvalidatingMutation(applyMigrations, migrationsQueryKey);
}

export function useApplySeedMutation() {
  return useInvalidatingMutation(applySeedData, migrationsQueryKey);
}

/** Spec 8: 'Failed to fetch migration status: {status}'. */
export function statusErrorText(error: unknown, t: TFunction): string {
  const status = error instanceof ApiError ? (error.status ?? 'N/A') : 'N/A';
  return t('migrations.fetchFailed', { status });
}

/** Spec 8: a call that failed over HTTP says 'HTTP error! status: {status}'. */
export function callErrorText(error: unknown, t: TFunction): string | undefined {
  return error instanceof ApiError && error.status !== undefined
    ? t('migrations.httpError', { status: error.status })
    : undefined;
}

/** Spec 8: a failed migration shows errorDetails, else message, else 'Migration failed'. */
export function migrationFailureText(
  result: Pick<MigrationResult, 'message' | 'errorDetails'> | undefined,
  t: TFunction,
): string {
  return result?.errorDetails || result?.message || t('migrations.migrationFailed');
}
