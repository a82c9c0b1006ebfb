/**
 * A list of short strings (tags, namespaces) edited as chips: typed into an input and added with
 * Enter or the Add button, each removed with its own button. What adding does (normalising,
 * refusing a repeat) is the caller's rule; the list is a form field of its own name.
 */
import { useId, useState, type ReactNode } from 'react';
import { useController, type FieldPath, type FieldValues } from 'react-hook-form';
import { PlusIcon, XIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/components/ui/utils';
import { itemMaxLengthOf } from './schema-limits';
import { useFieldSchema } from './form-schema';

/** What adding the typed text gives: the new list, or why nothing is added; `{}` to ignore it. */
export type ChipsAddition = { chips: string[] } | { problem: string } | Record<string, never>;

export interface ChipsInputProps<TValues extends FieldValues> {
  name: FieldPath<TValues>;
  label: string;
  description?: string;
  placeholder: string;
  addLabel: string;
  removeLabel: (chip: string) => string;
  /** The list after adding what was typed (which may hold several, or nothing new). */
  add: (chips: string[], draft: string) => ChipsAddition;
  /** Told of every change of the typed text, for a form that saves what is typed but not added. */
  onDraftChange?: (draft: string) => void;
  /** Something said about a chip beside it (e.g. that it is new). */
  chipNote?: (chip: string) => ReactNode;
  chipClassName?: string;
  autoComplete?: string;
  spellCheck?: boolean;
  /** The id of a `<datalist>` of suggestions. */
  list?: string;
}

export function ChipsInput<TValues extends FieldValues>({
  name,
  label,
  description,
  placeholder,
  addLabel,
  removeLabel,
  add,
  onDraftChange,
  chipNote,
  chipClassName,
  ...inputProps
}: ChipsInputProps<TValues>) {
  const id = useId();
  const {
    field: { value, onChange, ref },
    fieldState,
  } = useController<TValues>({ name });
  const chips = value as string[];
  const maxLength = itemMaxLengthOf(useFieldSchema(name));
  const [draft, setDraft] = useState('');
  const [refusal, setRefusal] = useState<string>();

  const changeDraft = (next: string) => {
    setDraft(next);
    onDraftChange?.(next);
  };
  const addDraft = () => {
    const addition = add(chips, draft);
    if ('problem' in addition) setRefusal(addition.problem);
    if (!('chips' in addition)) return;
    if (addition.chips.length !== chips.length) onChange(addition.chips);
    changeDraft('');
    setRefusal(undefined);
  };

  const problem = refusal ?? fieldState.error?.message;
  const describedBy = [description && `${id}-description`, problem && `${id}-message`].filter(
    Boolean,
  );

  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          {...inputProps}
          id={id}
          ref={ref}
          value={draft}
          placeholder={placeholder}
          maxLength={maxLength}
          aria-describedby={describedBy.length > 0 ? describedBy.join(' ') : undefined}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => {
            changeDraft(event.target.value);
            setRefusal(undefined);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              addDraft();
            }
          }}
        />
        <Button type="button" variant="outline" disabled={!draft.trim()} onClick={addDraft}>
          <PlusIcon aria-hidden="true" />
          {addLabel}
        </Button>
      </div>
      {description && (
        <p id={`${id}-description`} className="text-muted-foreground text-xs">
          {description}
        </p>
      )}
      {problem && (
        <p id={`${id}-message`} className="text-destructive text-sm">
          {problem}
        </p>
      )}
      {chips.length > 0 && (
        <ul aria-label={label} className="flex flex-wrap gap-2">
          {chips.map((chip) => (
            <li key={chip}>
              <Badge variant="secondary" className={cn('gap-1.5 py-1 pr-1', chipClassName)}>
                {chip}
                {chipNote?.(chip)}
                <button
                  type="button"
                  aria-label={removeLabel(chip)}
                  className="hover:bg-background focus-visible:ring-ring/50 rounded-sm p-0.5 outline-none focus-visible:ring-[3px]"
                  onClick={() => onChange(chips.filter((other) => other !== chip))}
                >
                  <XIcon aria-hidden="true" className="size-3" />
                </button>
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
