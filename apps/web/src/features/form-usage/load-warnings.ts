import type { TFunction } from 'i18next';
import type { FieldGroups } from '@/components/dynamic-form';

/**
 * What went wrong loading a dynamic form's groups (spec part 2, "Form-test dialog"): the groups
 * that failed, by name, and the field references of the HTML that name no field.
 */
export function loadWarnings({ failed, unresolved }: FieldGroups, t: TFunction): string[] {
  const warnings: string[] = [];
  if (failed.length > 0) warnings.push(t('formUsage.groupsFailed', { groups: failed.join(', ') }));
  if (unresolved.length > 0) {
    warnings.push(t('formUsage.unresolved', { ids: unresolved.join(', ') }));
  }
  return warnings;
}
