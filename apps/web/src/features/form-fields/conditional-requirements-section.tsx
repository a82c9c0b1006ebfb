/**
 * Conditional Requirements of the field dialog (spec part 2, sections 3 and 5): rows of the field
 * watched (a storage name of the catalogue), the requirement type ("any of" the trigger values,
 * or "none of" them: stored with '!' before each value), the trigger values, comma-separated,
 * and an optional message. Rows without a field name or trigger values are not saved.
 */
import { get, useFieldArray, useFormContext, useFormState } from 'react-hook-form';
import { PlusIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useFieldCatalogue } from './catalogue';
import { DialogSection } from './dialog-section';
import { emptyRequirementRow, type FieldFormValues } from './field-form';
import { RequirementRow } from './requirement-row';

export function ConditionalRequirementsSection({ currentId }: { currentId: number | undefined }) {
  const { t } = useTranslation();
  const { control } = useFormContext<FieldFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'conditionalRequirements' });
  const { errors } = useFormState({ control, name: 'conditionalRequirements' });
  const problem = (get(errors, 'conditionalRequirements') as { message?: string } | undefined)
    ?.message;
  const { storageNames } = useFieldCatalogue(currentId);

  return (
    <DialogSection title={t('formFields.dialog.sections.conditionalRequirements')}>
      <p className="text-muted-foreground text-xs">
        {t('formFields.dialog.conditionalRequirementsHint')}
      </p>
      {fields.map((row, index) => (
        <RequirementRow
          key={row.id}
          index={index}
          storageNames={storageNames ?? []}
          onRemove={() => remove(index)}
        />
      ))}
      {problem && (
        <p role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      )}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => append({ ...emptyRequirementRow })}
        >
          <PlusIcon aria-hidden="true" />
          {t('formFields.dialog.addRequirement')}
        </Button>
      </div>
    </DialogSection>
  );
}
