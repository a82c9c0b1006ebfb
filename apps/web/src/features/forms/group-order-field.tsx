/**
 * The UI group order of a form (spec part 2, "Form-definition dialog"; section 9: a scroll area
 * 200 px high): the groups of the selected fields, each moved up or down with its buttons. The
 * focus stays with the moved group and the move is announced, so the order can be set by keyboard.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ArrowDownIcon, ArrowUpIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { type FieldsById, type FormDefinitionValues, groupOrderOf } from './form-definition-values';

/** Spec 9: "Field-group order scroll area height 200 px". */
export const GROUP_ORDER_SCROLL_HEIGHT_PX = 200;

type Direction = 'up' | 'down';

export function GroupOrderField({ fieldsById }: { fieldsById: FieldsById }) {
  const { t } = useTranslation();
  const id = useId();
  const { setValue } = useFormContext<FormDefinitionValues>();
  const problem = useFormState<FormDefinitionValues>({ name: 'uiGroupOrder' }).errors.uiGroupOrder
    ?.message;
  const [fields, uiGroupOrder] = useWatch<FormDefinitionValues, ['fields', 'uiGroupOrder']>({
    name: ['fields', 'uiGroupOrder'],
  });
  const groups = groupOrderOf({ fields, uiGroupOrder }, fieldsById);
  const [announcement, setAnnouncement] = useState('');
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const focusAfterMove = useRef<string | null>(null);

  // The moved group's button of the same direction, or the other one once it reached an end.
  useEffect(() => {
    if (focusAfterMove.current === null) return;
    buttons.current.get(focusAfterMove.current)?.focus();
    focusAfterMove.current = null;
  });

  const move = (index: number, direction: Direction) => {
    const to = direction === 'up' ? index - 1 : index + 1;
    const next = [...groups];
    const [group] = next.splice(index, 1);
    if (group === undefined) return;
    next.splice(to, 0, group);
    setValue('uiGroupOrder', next, { shouldDirty: true });
    const atEnd = direction === 'up' ? to === 0 : to === next.length - 1;
    focusAfterMove.current = `${group}:${atEnd ? (direction === 'up' ? 'down' : 'up') : direction}`;
    setAnnouncement(t('forms.dialog.groupMoved', { group, position: to + 1, count: next.length }));
  };

  const button = (group: string, index: number, direction: Direction) => (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      className="size-7"
      aria-label={t(direction === 'up' ? 'forms.dialog.moveUp' : 'forms.dialog.moveDown', {
        group,
      })}
      disabled={direction === 'up' ? index === 0 : index === groups.length - 1}
      ref={(element) => {
        if (element) buttons.current.set(`${group}:${direction}`, element);
        else buttons.current.delete(`${group}:${direction}`);
      }}
      onClick={() => move(index, direction)}
    >
      {direction === 'up' ? (
        <ArrowUpIcon aria-hidden="true" />
      ) : (
        <ArrowDownIcon aria-hidden="true" />
      )}
    </Button>
  );

  return (
    <fieldset
      className="grid min-w-0 gap-2"
      aria-describedby={problem ? `${id}-hint ${id}-message` : `${id}-hint`}
    >
      <legend className="mb-1 text-sm font-medium">{t('forms.dialog.groupOrder')}</legend>
      <p id={`${id}-hint`} className="text-muted-foreground text-xs">
        {t('forms.dialog.groupOrderHint')}
      </p>
      <div
        data-testid="group-order-scroll-area"
        className="overflow-y-auto rounded-md border"
        style={{ height: GROUP_ORDER_SCROLL_HEIGHT_PX }}
      >
        {groups.length === 0 ? (
          <p className="text-muted-foreground p-3 text-sm">{t('forms.dialog.noGroups')}</p>
        ) : (
          <ol aria-label={t('forms.dialog.groupOrder')} className="divide-y">
            {groups.map((group, index) => (
              <li key={group} className="flex items-center gap-2 px-3 py-1 text-sm">
                <span className="min-w-0 flex-1 truncate">{group}</span>
                {button(group, index, 'up')}
                {button(group, index, 'down')}
              </li>
            ))}
          </ol>
        )}
      </div>
      {problem && (
        <p id={`${id}-message`} className="text-destructive text-sm">
          {problem}
        </p>
      )}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </fieldset>
  );
}
