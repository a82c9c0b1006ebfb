/**
 * One field of a form: label, control, description and message in one piece, tied together for
 * screen readers (`aria-invalid`, `aria-describedby`), its error read from react-hook-form and its
 * `maxLength` from the form's contract schema. A plain text field is one line:
 * `<FormField name="displayName" label={t('...')} />`; other controls come through `render`.
 */
import { useId, type ComponentProps, type ReactNode } from 'react';
import { useFormContext, useFormState, type FieldPath, type FieldValues } from 'react-hook-form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { maxLengthOf } from './schema-limits';
import { useFieldSchema } from './form-schema';

/** What the control of a field needs to be labelled and described. */
export interface FormControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
  'aria-required'?: 'true';
  maxLength?: number;
}

export type FormFieldProps<TValues extends FieldValues> = {
  name: FieldPath<TValues>;
  label: string;
  /** A hint under the control. */
  description?: string;
  /** Marks the control as required for screen readers (the rule itself is the schema's). */
  required?: boolean;
  /**
   * The message the field shows for its error (default: the error's own). A dialog that says a
   * problem elsewhere (an alert) returns undefined; the field is still marked invalid.
   */
  messageOf?: (error: string | undefined) => string | undefined;
  /** Another control than a text input, given the props that tie it to the label and message. */
  render?: (control: FormControlProps) => ReactNode;
} & Omit<ComponentProps<typeof Input>, 'name' | 'id' | 'children' | keyof FormControlProps>;

export function FormField<TValues extends FieldValues>({
  name,
  label,
  description,
  required,
  messageOf = (error) => error,
  render,
  ...inputProps
}: FormFieldProps<TValues>) {
  const id = useId();
  const { register, getFieldState } = useFormContext<TValues>();
  const { error } = getFieldState(name, useFormState<TValues>({ name }));
  const maxLength = maxLengthOf(useFieldSchema(name));
  const message = messageOf(error?.message);
  const descriptionId = `${id}-description`;
  const messageId = `${id}-message`;
  const describedBy = [description && descriptionId, message && messageId].filter(Boolean);
  const control: FormControlProps = {
    id,
    'aria-invalid': error || message ? true : undefined,
    'aria-describedby': describedBy.length > 0 ? describedBy.join(' ') : undefined,
    'aria-required': required ? 'true' : undefined,
    maxLength,
  };
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {render ? render(control) : <Input {...inputProps} {...control} {...register(name)} />}
      {description && (
        <p id={descriptionId} className="text-muted-foreground text-xs">
          {description}
        </p>
      )}
      {message && (
        <p id={messageId} className="text-destructive text-sm">
          {message}
        </p>
      )}
    </div>
  );
}
