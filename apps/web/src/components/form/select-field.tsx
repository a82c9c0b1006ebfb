/**
 * A field that picks one of a list loaded from the server (a tenant's country, a tenant user's
 * tenant): a `FormField` around a select whose value is the option's string, with a placeholder
 * while nothing is chosen and the loading failure, if any, under it.
 */
import { useController, type FieldPath, type FieldValues } from 'react-hook-form';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { FormField, type FormFieldProps } from './form-field';

export interface SelectOption {
  value: string;
  label: string;
}

const labelOrder = new Intl.Collator('en', { sensitivity: 'base' });

/** Options in the order of their labels, as people look for a name in a long list. */
export function optionsByLabel<T>(
  items: readonly T[] | undefined,
  option: (item: T) => SelectOption,
): SelectOption[] {
  return (items ?? []).map(option).sort((a, b) => labelOrder.compare(a.label, b.label));
}

export type SelectFieldProps<TValues extends FieldValues> = Pick<
  FormFieldProps<TValues>,
  'label' | 'required' | 'messageOf'
> & {
  name: FieldPath<TValues>;
  options: readonly SelectOption[];
  placeholder: string;
  /** Why the options could not be loaded. */
  loadError?: string;
  /** Told of a choice after the form's value changed (e.g. to clear what no longer applies). */
  onValueChange?: (value: string) => void;
};

export function SelectField<TValues extends FieldValues>({
  name,
  options,
  placeholder,
  loadError,
  onValueChange,
  ...fieldProps
}: SelectFieldProps<TValues>) {
  const { field } = useController<TValues>({ name });
  return (
    <FormField<TValues>
      name={name}
      {...fieldProps}
      render={(control) => (
        <>
          <Select
            value={field.value}
            onValueChange={(value) => {
              field.onChange(value);
              onValueChange?.(value);
            }}
            name={field.name}
          >
            <SelectTrigger
              id={control.id}
              ref={field.ref}
              className="w-full"
              aria-required={control['aria-required']}
              aria-invalid={control['aria-invalid']}
              aria-describedby={control['aria-describedby']}
            >
              <SelectValue placeholder={placeholder} />
            </SelectTrigger>
            <SelectContent className="max-h-72">
              {options.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {loadError && <p className="text-destructive text-sm">{loadError}</p>}
        </>
      )}
    />
  );
}
