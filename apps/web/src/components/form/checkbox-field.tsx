/**
 * A yes/no field of a form: a checkbox with its label beside it and an optional hint, on
 * react-hook-form (the value is a boolean).
 */
import { useId } from 'react';
import { useController, type FieldPath, type FieldValues } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';

export interface CheckboxFieldProps<TValues extends FieldValues> {
  name: FieldPath<TValues>;
  label: string;
  description?: string;
}

export function CheckboxField<TValues extends FieldValues>({
  name,
  label,
  description,
}: CheckboxFieldProps<TValues>) {
  const id = useId();
  const {
    field: { ref, value, onChange, onBlur },
  } = useController<TValues>({ name });
  return (
    <div className="flex items-start gap-2">
      <Checkbox
        id={id}
        ref={ref}
        name={name}
        checked={value === true}
        onCheckedChange={(checked) => onChange(checked === true)}
        onBlur={onBlur}
        aria-describedby={description ? `${id}-description` : undefined}
      />
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        {description && (
          <p id={`${id}-description`} className="text-muted-foreground text-xs">
            {description}
          </p>
        )}
      </div>
    </div>
  );
}
