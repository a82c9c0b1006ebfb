/**
 * The two editors of the document type dialog whose names may be new: tags (chips) and API
 * references (service name to reference value rows). A name no document type uses yet gets the
 * 'new, first time used' warning (spec part 1, section 2), so that a typo ('onfdio') is seen
 * before it becomes a second service.
 */
import { TriangleAlertIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { normalizeTags } from '@console/contracts';
import { ChipsInput, KeyValueEditor } from '@/components/form';
import { useUsedApiServiceNamesQuery, useUsedTagsQuery } from './api';
import type { DocumentTypeFormValues } from './document-type-form';

/** Whether a name is new: known only once the used names have loaded. */
function isNewName(name: string, used: readonly string[] | undefined): boolean {
  return used !== undefined && name !== '' && !used.includes(name);
}

function NewNameWarning() {
  const { t } = useTranslation();
  return (
    <span className="inline-flex items-center gap-1 text-xs font-normal text-amber-800">
      <TriangleAlertIcon aria-hidden="true" className="size-3" />
      {t('documentTypes.dialog.newFirstTimeUsed')}
    </span>
  );
}

// Several tags may be typed at once, separated by commas; all are normalised (spec 5).
const addTags = (tags: string[], draft: string) => ({
  chips: normalizeTags([...tags, ...draft.split(',')]),
});

export function TagsField() {
  const { t } = useTranslation();
  const usedTags = useUsedTagsQuery();
  return (
    <ChipsInput<DocumentTypeFormValues>
      name="tags"
      label={t('documentTypes.dialog.tags')}
      placeholder={t('documentTypes.dialog.tagPlaceholder')}
      addLabel={t('documentTypes.dialog.addTag')}
      removeLabel={(tag) => t('documentTypes.dialog.removeTag', { tag })}
      add={addTags}
      chipNote={(tag) => isNewName(tag, usedTags.data) && <NewNameWarning />}
    />
  );
}

export function ApiReferencesField() {
  const { t } = useTranslation();
  const usedServiceNames = useUsedApiServiceNamesQuery();
  return (
    <KeyValueEditor<DocumentTypeFormValues>
      name="apiReferences"
      keyField="service"
      valueField="value"
      legend={t('documentTypes.dialog.apiReferences')}
      description={t('documentTypes.dialog.apiReferencesHint')}
      keyLabel={(number) => t('documentTypes.dialog.serviceName', { number })}
      valueLabel={(number) => t('documentTypes.dialog.referenceValue', { number })}
      removeLabel={(number) => t('documentTypes.dialog.removeReference', { number })}
      addLabel={t('documentTypes.dialog.addReference')}
      keyPlaceholder={t('documentTypes.dialog.servicePlaceholder')}
      valuePlaceholder={t('documentTypes.dialog.valuePlaceholder')}
      keyNote={(service) => isNewName(service, usedServiceNames.data) && <NewNameWarning />}
    />
  );
}
