/**
 * Rows of a key and a value (API references: service name to reference value) on react-hook-form's
 * `useFieldArray`: one pair of inputs a row, each with its message, a button to remove the row and
 * one to add an empty one. The form holds the rows as `{ [keyField]: string, [valueField]: string }`;
 * the contract's map of strings gives the inputs their max lengths.
 */
import { useId, type ReactNode } from 'react';
import {
  get,
  useFieldArray,
  useFormContext,
  useFormState,
  useWatch,
  type ArrayPath,
  type FieldValues,
} from 'react-hook-form';
import { PlusIcon, XIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { entryMaxLengthsOf } from './schema-limits';
import { useFieldSchema } from './form-schema';

type Row = Record<string, string>;
type Message = { message?: string } | undefined;
type RowErrors = { message?: string; [index: number]: Record<string, Message> | undefined };

export interface KeyValueEditorProps<TValues extends FieldValues> {
  name: ArrayPath<TValues>;
  keyField: string;
  valueField: string;
  legend: string;
  description?: string;
  /** Accessible names of a row's inputs and buttons, by row number (from 1). */
  keyLabel: (number: number) => string;
  valueLabel: (number: number) => string;
  removeLabel: (number: number) => string;
  addLabel: string;
  keyPlaceholder?: string;
  valuePlaceholder?: string;
  /** Something said under a key that has no error (e.g. that the name is new). */
  keyNote?: (key: string) => ReactNode;
}

export function KeyValueEditor<TValues extends FieldValues>(props: KeyValueEditorProps<TValues>) {
  const { keyField, valueField, legend, description, addLabel } = props;
  // Paths built from the name are not known to the form's types: the rows are read untyped.
  const name: string = props.name;
  const groupId = useId();
  const { control, register } = useFormContext();
  const { fields, append, remove } = useFieldArray({ control, name });
  const rows = useWatch({ control, name }) as Row[] | undefined;
  const rowErrors = get(useFormState({ control, name }).errors, name) as RowErrors | undefined;
  const maxLengths = entryMaxLengthsOf(useFieldSchema(name));

  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={description ? `${groupId}-description` : undefined}
    >
      <legend className="text-sm font-medium">{legend}</legend>
      {description && (
        <p id={`${groupId}-description`} className="text-muted-foreground text-xs">
          {description}
        </p>
      )}
      {fields.map((field, index) => {
        const number = index + 1;
        const note = props.keyNote?.(rows?.[index]?.[keyField]?.trim() ?? '');
        const cell = (part: string, label: string, placeholder?: string, maxLength?: number) => {
          const message = rowErrors?.[index]?.[part]?.message;
          const noteShown = part === keyField && !message && note;
          const noteId = `${groupId}-${field.id}-${part}`;
          return (
            <div className="grid gap-1">
              <Input
                aria-label={label}
                placeholder={placeholder}
                maxLength={maxLength}
                aria-invalid={message ? true : undefined}
                aria-describedby={message || noteShown ? noteId : undefined}
                {...register(`${name}.${index}.${part}`)}
              />
              {message ? (
                <p id={noteId} className="text-destructive text-xs">
                  {message}
                </p>
              ) : (
                noteShown && <span id={noteId}>{note}</span>
              )}
            </div>
          );
        };
        return (
          <div key={field.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
            {cell(keyField, props.keyLabel(number), props.keyPlaceholder, maxLengths.key)}
            {cell(valueField, props.valueLabel(number), props.valuePlaceholder, maxLengths.value)}
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={props.removeLabel(number)}
              onClick={() => remove(index)}
            >
              <XIcon aria-hidden="true" />
            </Button>
          </div>
        );
      })}
      {rowErrors?.message && <p className="text-destructive text-sm">{rowErrors.message}</p>}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => append({ [keyField]: '', [valueField]: '' })}
        >
          <PlusIcon aria-hidden="true" />
          {addLabel}
        </Button>
      </div>
    </fieldset>
  );
}
