/**
 * The two editors of the document type dialog whose names may be new: tags (chips) and API
 * references (service name to reference value rows). A name no document type uses yet gets the
 * 'new, first time used' warning (spec part 1, section 2), so that a typo ('onfdio') is seen
 * before it becomes a second service.
 */
import { useId, useState } from 'react';
import {
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
} from 'react-hook-form';
import { PlusIcon, TriangleAlertIcon, XIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { normalizeTags } from '@console/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { DocumentTypeFormValues } from './document-type-form';

/** Whether a name is new: known only once the used names have loaded. */
function isNewName(name: string, used: readonly string[] | undefined): boolean {
  return used !== undefined && name !== '' && !used.includes(name);
}

export function NewNameWarning({ id }: { id?: string }) {
  const { t } = useTranslation();
  return (
    <span id={id} className="inline-flex items-center gap-1 text-xs font-normal text-amber-800">
      <TriangleAlertIcon aria-hidden="true" className="size-3" />
      {t('documentTypes.dialog.newFirstTimeUsed')}
    </span>
  );
}

export function TagsEditor({
  value,
  onChange,
  usedTags,
}: {
  value: string[];
  onChange: (tags: string[]) => void;
  usedTags: readonly string[] | undefined;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const [draft, setDraft] = useState('');

  // Several tags may be typed at once, separated by commas; all are normalised (spec 5).
  const addDraft = () => {
    const next = normalizeTags([...value, ...draft.split(',')]);
    if (next.length !== value.length) onChange(next);
    setDraft('');
  };

  return (
    <div className="grid gap-2">
      <Label htmlFor={inputId}>{t('documentTypes.dialog.tags')}</Label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          value={draft}
          placeholder={t('documentTypes.dialog.tagPlaceholder')}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              addDraft();
            }
          }}
        />
        <Button type="button" variant="outline" disabled={!draft.trim()} onClick={addDraft}>
          <PlusIcon aria-hidden="true" />
          {t('documentTypes.dialog.addTag')}
        </Button>
      </div>
      {value.length > 0 && (
        <ul aria-label={t('documentTypes.dialog.tags')} className="flex flex-wrap gap-2">
          {value.map((tag) => (
            <li key={tag}>
              <Badge variant="secondary" className="gap-1.5 py-1 pr-1">
                {tag}
                {isNewName(tag, usedTags) && <NewNameWarning />}
                <button
                  type="button"
                  aria-label={t('documentTypes.dialog.removeTag', { tag })}
                  className="hover:bg-background focus-visible:ring-ring/50 rounded-sm p-0.5 outline-none focus-visible:ring-[3px]"
                  onClick={() => onChange(value.filter((other) => other !== tag))}
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

export function ApiReferencesEditor({
  control,
  register,
  errors,
  usedServiceNames,
}: {
  control: Control<DocumentTypeFormValues>;
  register: UseFormRegister<DocumentTypeFormValues>;
  errors: FieldErrors<DocumentTypeFormValues>['apiReferences'];
  usedServiceNames: readonly string[] | undefined;
}) {
  const { t } = useTranslation();
  const groupId = useId();
  const { fields, append, remove } = useFieldArray({ control, name: 'apiReferences' });
  const rows = useWatch({ control, name: 'apiReferences' });

  return (
    <fieldset className="grid gap-2" aria-describedby={`${groupId}-hint`}>
      <legend className="text-sm font-medium">{t('documentTypes.dialog.apiReferences')}</legend>
      <p id={`${groupId}-hint`} className="text-muted-foreground text-xs">
        {t('documentTypes.dialog.apiReferencesHint')}
      </p>
      {fields.map((field, index) => {
        const number = index + 1;
        const service = rows?.[index]?.service.trim() ?? '';
        const serviceError = errors?.[index]?.service?.message;
        const valueError = errors?.[index]?.value?.message;
        const serviceNoteId = `${groupId}-${field.id}-service`;
        const valueNoteId = `${groupId}-${field.id}-value`;
        const serviceIsNew = isNewName(service, usedServiceNames);
        return (
          <div key={field.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
            <div className="grid gap-1">
              <Input
                aria-label={t('documentTypes.dialog.serviceName', { number })}
                placeholder={t('documentTypes.dialog.servicePlaceholder')}
                aria-invalid={serviceError ? true : undefined}
                aria-describedby={serviceError || serviceIsNew ? serviceNoteId : undefined}
                {...register(`apiReferences.${index}.service`)}
              />
              {serviceError ? (
                <p id={serviceNoteId} className="text-destructive text-xs">
                  {serviceError}
                </p>
              ) : (
                serviceIsNew && <NewNameWarning id={serviceNoteId} />
              )}
            </div>
            <div className="grid gap-1">
              <Input
                aria-label={t('documentTypes.dialog.referenceValue', { number })}
                placeholder={t('documentTypes.dialog.valuePlaceholder')}
                aria-invalid={valueError ? true : undefined}
                aria-describedby={valueError ? valueNoteId : undefined}
                {...register(`apiReferences.${index}.value`)}
              />
              {valueError && (
                <p id={valueNoteId} className="text-destructive text-xs">
                  {valueError}
                </p>
              )}
            </div>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={t('documentTypes.dialog.removeReference', { number })}
              onClick={() => remove(index)}
            >
              <XIcon aria-hidden="true" />
            </Button>
          </div>
        );
      })}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => append({ service: '', value: '' })}
        >
          <PlusIcon aria-hidden="true" />
          {t('documentTypes.dialog.addReference')}
        </Button>
      </div>
    </fieldset>
  );
}
