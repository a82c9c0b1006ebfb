/**
 * The two editors of the document type dialog whose names may be new, on the form layer's
 * `TagsField` and `ApiReferencesField`: a tag or service no document type uses yet is flagged
 * 'new, first time used' (spec part 1, section 2).
 */
import { useTranslation } from 'react-i18next';
import {
  ApiReferencesField as ApiReferencesEditor,
  TagsField as TagsEditor,
} from '@/components/form';
import { useUsedApiServiceNamesQuery, useUsedTagsQuery } from './api';
import type { DocumentTypeFormValues } from './document-type-form';

export function TagsField() {
  const { t } = useTranslation();
  const usedTags = useUsedTagsQuery();
  return (
    <TagsEditor<DocumentTypeFormValues>
      name="tags"
      label={t('documentTypes.dialog.tags')}
      placeholder={t('documentTypes.dialog.tagPlaceholder')}
      addLabel={t('documentTypes.dialog.addTag')}
      removeLabel={(tag) => t('documentTypes.dialog.removeTag', { tag })}
      used={usedTags.data}
      newLabel={t('documentTypes.dialog.newFirstTimeUsed')}
    />
  );
}

export function ApiReferencesField() {
  const { t } = useTranslation();
  const usedServiceNames = useUsedApiServiceNamesQuery();
  return (
    <ApiReferencesEditor<DocumentTypeFormValues>
      name="apiReferences"
      legend={t('documentTypes.dialog.apiReferences')}
      description={t('documentTypes.dialog.apiReferencesHint')}
      keyLabel={(number) => t('documentTypes.dialog.serviceName', { number })}
      valueLabel={(number) => t('documentTypes.dialog.referenceValue', { number })}
      removeLabel={(number) => t('documentTypes.dialog.removeReference', { number })}
      addLabel={t('documentTypes.dialog.addReference')}
      keyPlaceholder={t('documentTypes.dialog.servicePlaceholder')}
      valuePlaceholder={t('documentTypes.dialog.valuePlaceholder')}
      used={usedServiceNames.data}
      newLabel={t('documentTypes.dialog.newFirstTimeUsed')}
    />
  );
}
