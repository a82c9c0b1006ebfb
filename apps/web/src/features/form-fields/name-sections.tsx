/**
 * The Tags and API References sections of the field dialog, on the form layer's editors: tags
 * trimmed, lowercased and deduplicated, and a tag or API service that no field uses yet flagged
 * 'new, first time used' (spec part 2, section 5).
 */
import { useTranslation } from 'react-i18next';
import { ApiReferencesField, TagsField } from '@/components/form';
import { useUsedFieldApiServiceNamesQuery, useUsedFieldTagsQuery } from './api';
import { DialogSection } from './dialog-section';
import type { FieldFormValues } from './field-form';

export function TagsSection() {
  const { t } = useTranslation();
  const usedTags = useUsedFieldTagsQuery();
  return (
    <DialogSection title={t('formFields.dialog.sections.tags')} titleShown={false}>
      <TagsField<FieldFormValues>
        name="tags"
        label={t('formFields.dialog.tags')}
        placeholder={t('formFields.dialog.tagPlaceholder')}
        addLabel={t('formFields.dialog.addTag')}
        removeLabel={(tag) => t('formFields.dialog.removeTag', { tag })}
        used={usedTags.data}
        newLabel={t('formFields.dialog.newFirstTimeUsed')}
      />
    </DialogSection>
  );
}

export function ApiReferencesSection() {
  const { t } = useTranslation();
  const usedServiceNames = useUsedFieldApiServiceNamesQuery();
  return (
    <DialogSection title={t('formFields.dialog.sections.apiReferences')} titleShown={false}>
      <ApiReferencesField<FieldFormValues>
        name="apiReferences"
        legend={t('formFields.dialog.apiReferences')}
        description={t('formFields.dialog.apiReferencesHint')}
        keyLabel={(number) => t('formFields.dialog.serviceName', { number })}
        valueLabel={(number) => t('formFields.dialog.referenceValue', { number })}
        removeLabel={(number) => t('formFields.dialog.removeReference', { number })}
        addLabel={t('formFields.dialog.addReference')}
        keyPlaceholder={t('formFields.dialog.servicePlaceholder')}
        valuePlaceholder={t('formFields.dialog.valuePlaceholder')}
        used={usedServiceNames.data}
        newLabel={t('formFields.dialog.newFirstTimeUsed')}
      />
    </DialogSection>
  );
}
