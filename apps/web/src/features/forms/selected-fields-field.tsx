/**
 * The selected fields of a form (spec part 2, "Form-definition dialog"): a field is added from the
 * catalogue (one already selected cannot be added twice), each is removed with its own button, and
 * a field id that names no field (a missing reference) shows in red and can be removed. The list
 * shows the fields in the order they will be saved.
 */
import { useId, useRef, useState } from 'react';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { compareFormFieldsForList, sortFieldsForSave, type FormField } from '@console/contracts';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Button } from '@/components/ui/button';
import { formsErrorText } from './api';
import { type FieldsById, type FormDefinitionValues, groupOrderOf } from './form-definition-values';
import { SelectedFieldsList, type SelectedItem } from './selected-fields-list';

interface CatalogueQuery {
  data: FormField[] | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

export function SelectedFieldsField({
  catalogue,
  fieldsById,
}: {
  catalogue: CatalogueQuery;
  fieldsById: FieldsById;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { field, fieldState } = useController<FormDefinitionValues, 'fields'>({ name: 'fields' });
  const { getValues, setValue } = useFormContext<FormDefinitionValues>();
  const uiGroupOrder = useWatch<FormDefinitionValues, 'uiGroupOrder'>({ name: 'uiGroupOrder' });
  const [choice, setChoice] = useState('');
  const trigger = useRef<HTMLButtonElement>(null);
  const selected = field.value;

  // Groups come and go with their fields (spec 2: the default order is their first appearance).
  const changeSelected = (next: number[]) => {
    field.onChange(next);
    const order = groupOrderOf(
      { fields: next, uiGroupOrder: getValues('uiGroupOrder') },
      fieldsById,
    );
    setValue('uiGroupOrder', order);
  };
  // A selected field is a disabled option: it cannot be chosen, so not added twice (spec 2).
  const add = () => {
    const picked = fieldsById.get(Number(choice));
    if (picked && !selected.includes(picked.id)) changeSelected([...selected, picked.id]);
    setChoice('');
  };

  const known = selected.flatMap((fieldId) => fieldsById.get(fieldId) ?? []);
  const order = groupOrderOf({ fields: selected, uiGroupOrder }, fieldsById);
  const items: SelectedItem[] = [
    ...sortFieldsForSave(known, order).map((field) => ({ id: field.id, field })),
    ...selected.filter((fieldId) => !fieldsById.has(fieldId)).map((fieldId) => ({ id: fieldId })),
  ];
  const options = [...(catalogue.data ?? [])].sort(compareFormFieldsForList);
  const problem =
    fieldState.error?.message ??
    (catalogue.isError
      ? formsErrorText(catalogue.error, (status) => t('forms.errors.fieldsFailed', { status }))
      : undefined);

  return (
    <fieldset className="grid min-w-0 gap-2">
      <legend className="mb-1 text-sm font-medium">{t('forms.dialog.fields')}</legend>
      <div className="flex gap-2">
        <Select value={choice} onValueChange={setChoice} disabled={options.length === 0}>
          <SelectTrigger
            id={id}
            ref={(element) => {
              trigger.current = element;
              field.ref(element);
            }}
            className="min-w-0 flex-1"
            aria-label={t('forms.dialog.fieldPicker')}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-message` : undefined}
          >
            <SelectValue
              placeholder={
                catalogue.isPending
                  ? t('forms.dialog.fieldsLoading')
                  : t('forms.dialog.fieldPlaceholder')
              }
            />
          </SelectTrigger>
          <SelectContent className="max-h-72">
            {options.map((option) => (
              <SelectItem
                key={option.id}
                value={String(option.id)}
                disabled={selected.includes(option.id)}
              >
                {t('forms.dialog.fieldOption', {
                  displayName: option.displayName,
                  name: option.name,
                  group: option.uiGroup,
                })}
                {selected.includes(option.id) && ` ${t('forms.dialog.selectedSuffix')}`}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Button type="button" variant="outline" disabled={choice === ''} onClick={add}>
          {t('forms.dialog.addField')}
        </Button>
      </div>
      {problem && (
        <p id={`${id}-message`} className="text-destructive text-sm">
          {problem}
        </p>
      )}
      <SelectedFieldsList
        items={items}
        onRemove={(fieldId) => changeSelected(selected.filter((other) => other !== fieldId))}
        onEmptied={() => trigger.current?.focus()}
      />
    </fieldset>
  );
}
