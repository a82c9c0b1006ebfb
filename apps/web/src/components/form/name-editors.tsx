/**
 * Editors of names that may be new: tags (chips) and API references (service name to reference
 * value rows). A name that nothing of its kind uses yet gets a 'new, first time used' warning
 * (spec part 1, section 2; part 2, section 5), so that a typo ('onfdio') is seen before it
 * becomes a second service. The used names come from the screen (its used-tags and
 * used-API-service-names calls), and so do the words.
 */
import type { FieldPath, FieldValues } from 'react-hook-form';
import { TriangleAlertIcon } from 'lucide-react';
import { normalizeTags } from '@console/contracts';
import { ChipsInput, type ChipsInputProps } from './chips-input';
import { KeyValueEditor, type KeyValueEditorProps } from './key-value-editor';

/** Whether a name is new: known only once the used names have loaded. */
export function isNewName(name: string, used: readonly string[] | undefined): boolean {
  return used !== undefined && name !== '' && !used.includes(name);
}

function NewNameWarning({ text }: { text: string }) {
  return (
    <span className="inline-flex items-center gap-1 text-xs font-normal text-amber-800">
      <TriangleAlertIcon aria-hidden="true" className="size-3" />
      {text}
    </span>
  );
}

// Several tags may be typed at once, separated by commas; all are normalised (trimmed,
// lowercased, deduplicated).
const addTags = (tags: string[], draft: string) => ({
  chips: normalizeTags([...tags, ...draft.split(',')]),
});

interface NewNameProps {
  /** The names in use; undefined while unknown (nothing is flagged then). */
  used: readonly string[] | undefined;
  /** The warning beside a new name ('new, first time used'). */
  newLabel: string;
}

export type TagsFieldProps<TValues extends FieldValues> = Omit<
  ChipsInputProps<TValues>,
  'add' | 'chipNote'
> &
  NewNameProps & { name: FieldPath<TValues> };

/** Tags as chips, normalised as added, each new one flagged. */
export function TagsField<TValues extends FieldValues>({
  used,
  newLabel,
  ...props
}: TagsFieldProps<TValues>) {
  return (
    <ChipsInput<TValues>
      {...props}
      add={addTags}
      chipNote={(tag) => isNewName(tag, used) && <NewNameWarning text={newLabel} />}
    />
  );
}

export type ApiReferencesFieldProps<TValues extends FieldValues> = Omit<
  KeyValueEditorProps<TValues>,
  'keyField' | 'valueField' | 'keyNote'
> &
  NewNameProps;

/** API references as rows of service name and value (`ApiReferenceRow`), new services flagged. */
export function ApiReferencesField<TValues extends FieldValues>({
  used,
  newLabel,
  ...props
}: ApiReferencesFieldProps<TValues>) {
  return (
    <KeyValueEditor<TValues>
      {...props}
      keyField="service"
      valueField="value"
      keyNote={(service) => isNewName(service, used) && <NewNameWarning text={newLabel} />}
    />
  );
}
