import { useCallback } from 'react';
import { useQueries, type QueryKey } from '@tanstack/react-query';
import { apiErrorMessage } from '@/lib/api-client';
import type { DynamicFormGroup } from './dynamic-form';
import { sanitizeFormHtml } from './sanitize';
import { unresolvedFieldIds } from './form-dom';

export interface FieldGroupsSource {
  /** The groups of the form, in order. */
  groups: readonly string[];
  queryKey: (group: string) => QueryKey;
  /** Loads the HTML of one group. */
  load: (group: string, signal: AbortSignal) => Promise<string>;
  /** Nothing loads while false (e.g. the form's groups are not known yet). */
  enabled?: boolean;
}

export interface FieldGroups {
  /** Each group: its HTML, its failure or neither while it loads. */
  groups: DynamicFormGroup[];
  /** The groups that could not be loaded, in order. */
  failed: string[];
  /** The field ids the loaded HTML marks as unresolved references, once each. */
  unresolved: string[];
  /** Whether a group is still loading. */
  loading: boolean;
}

/**
 * Loads the HTML of each of a form's field groups, side by side (one query each); `groups`
 * should keep its identity while the form's groups do not change.
 */
export function useFieldGroups({
  groups,
  queryKey,
  load,
  enabled = true,
}: FieldGroupsSource): FieldGroups {
  // Combined again only when a query's state changed (or the groups did), so the form injects
  // a group's HTML again only when it changed.
  const combine = useCallback(
    (results: readonly { data: string | undefined; error: Error | null }[]) =>
      fieldGroupsOf(groups, results),
    [groups],
  );
  return useQueries({
    queries: groups.map((group) => ({
      queryKey: queryKey(group),
      queryFn: ({ signal }: { signal: AbortSignal }) => load(group, signal),
      enabled,
    })),
    combine,
  });
}

function fieldGroupsOf(
  names: readonly string[],
  results: readonly { data: string | undefined; error: Error | null }[],
): FieldGroups {
  const groups = names.map((name, index): DynamicFormGroup => {
    const result = results[index];
    if (result?.data !== undefined) return { name, html: result.data };
    if (result?.error) return { name, error: apiErrorMessage(result.error) };
    return { name };
  });
  const unresolved = new Set<string>();
  for (const group of groups) {
    if (group.html === undefined || !group.html.includes('data-unresolved-field')) continue;
    unresolvedFieldIds(sanitizeFormHtml(group.html)).forEach((id) => unresolved.add(id));
  }
  return {
    groups,
    failed: groups.filter((group) => group.error !== undefined).map((group) => group.name),
    unresolved: [...unresolved],
    loading: groups.some((group) => group.html === undefined && group.error === undefined),
  };
}
