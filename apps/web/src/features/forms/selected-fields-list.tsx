/**
 * The list of a form's selected fields, each with its remove button; a missing field reference
 * (an id that names no field) in red. After a removal the focus moves to the next remove button
 * (or the one before), so the list can be worked through by keyboard.
 */
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { XIcon } from 'lucide-react';
import type { FormField } from '@console/contracts';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/utils';

/** A selected field id, and its field unless the reference is missing. */
export interface SelectedItem {
  id: number;
  field?: FormField;
}

export function SelectedFieldsList({
  items,
  onRemove,
  onEmptied,
}: {
  items: readonly SelectedItem[];
  onRemove: (id: number) => void;
  /** The last item went: the focus goes back to the picker. */
  onEmptied: () => void;
}) {
  const { t } = useTranslation();
  const buttons = useRef(new Map<number, HTMLButtonElement>());
  const hasMissing = items.some((item) => !item.field);

  const remove = (index: number) => {
    const neighbour = items[index + 1] ?? items[index - 1];
    onRemove(items[index]!.id);
    if (neighbour) buttons.current.get(neighbour.id)?.focus();
    else onEmptied();
  };

  if (items.length === 0) {
    return <p className="text-muted-foreground text-sm">{t('forms.dialog.noFields')}</p>;
  }
  return (
    <>
      <p className="text-muted-foreground text-xs">{t('forms.dialog.fieldsHint')}</p>
      <ul
        aria-label={t('forms.dialog.fields')}
        className="max-h-56 divide-y overflow-y-auto rounded-md border"
      >
        {items.map((item, index) => {
          const text = item.field
            ? t('forms.dialog.fieldItem', {
                displayName: item.field.displayName,
                name: item.field.name,
              })
            : t('forms.dialog.missingField', { id: item.id });
          return (
            <li
              key={item.id}
              data-missing={item.field ? undefined : 'true'}
              className={cn(
                'flex items-center gap-2 px-3 py-1 text-sm',
                !item.field && 'text-destructive font-medium',
              )}
            >
              <span className="min-w-0 flex-1 truncate">{text}</span>
              {item.field && (
                <span className="text-muted-foreground shrink-0 text-xs">{item.field.uiGroup}</span>
              )}
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-7 shrink-0"
                aria-label={t('forms.dialog.removeField', { name: text })}
                ref={(button) => {
                  if (button) buttons.current.set(item.id, button);
                  else buttons.current.delete(item.id);
                }}
                onClick={() => remove(index)}
              >
                <XIcon aria-hidden="true" />
              </Button>
            </li>
          );
        })}
      </ul>
      {hasMissing && <p className="text-destructive text-xs">{t('forms.dialog.missingHint')}</p>}
    </>
  );
}
