/** One conditional requirement of the field dialog: field, type, trigger values and message. */
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { XIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { RequirementType } from '@console/contracts';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import type { FieldFormValues } from './field-form';

const REQUIREMENT_TYPES: readonly RequirementType[] = ['any', 'none'];

export function RequirementRow({
  index,
  storageNames,
  onRemove,
}: {
  index: number;
  /** The fields a requirement may watch. */
  storageNames: readonly string[];
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const number = index + 1;
  const { control, register } = useFormContext<FieldFormValues>();
  const path = `conditionalRequirements.${index}` as const;
  const watched = useWatch({ control, name: `${path}.fieldName` });
  // A stored requirement may watch a field the catalogue no longer has: it stays choosable.
  const names =
    watched && !storageNames.includes(watched) ? [watched, ...storageNames] : storageNames;

  return (
    <div className="grid grid-cols-[1fr_auto] items-start gap-2 rounded-md border p-2">
      <div className="grid gap-2 sm:grid-cols-2">
        <Controller
          control={control}
          name={`${path}.fieldName`}
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange} name={field.name}>
              <SelectTrigger
                ref={field.ref}
                className="w-full font-mono"
                aria-label={t('formFields.dialog.requirementField', { number })}
              >
                <SelectValue placeholder={t('formFields.dialog.requirementFieldPlaceholder')} />
              </SelectTrigger>
              <SelectContent className="max-h-72">
                {names.map((name) => (
                  <SelectItem key={name} value={name} className="font-mono">
                    {name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
        <Controller
          control={control}
          name={`${path}.type`}
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange} name={field.name}>
              <SelectTrigger
                ref={field.ref}
                className="w-full"
                aria-label={t('formFields.dialog.requirementType', { number })}
              >
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {REQUIREMENT_TYPES.map((type) => (
                  <SelectItem key={type} value={type}>
                    {t(`formFields.dialog.requirementTypes.${type}`)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
        <Input
          aria-label={t('formFields.dialog.triggerValues', { number })}
          placeholder={t('formFields.dialog.triggerValuesPlaceholder')}
          {...register(`${path}.triggerValues`)}
        />
        <Input
          aria-label={t('formFields.dialog.requirementMessage', { number })}
          placeholder={t('formFields.dialog.requirementMessagePlaceholder')}
          {...register(`${path}.validationMessage`)}
        />
      </div>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label={t('formFields.dialog.removeRequirement', { number })}
        onClick={onRemove}
      >
        <XIcon aria-hidden="true" />
      </Button>
    </div>
  );
}
