/**
 * The columns of the forms list (spec part 2, "Forms list"): Name, id with its copy button,
 * Created At, Updated At, and the row's actions Test, Edit, Clone and Delete. The list keeps the
 * spec's order (name, then the latest update), so the headers do not sort.
 */
import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { CopyIcon, CopyPlusIcon, FlaskConicalIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import { toast } from 'sonner';
import type { FormListItem } from '@console/contracts';
import { dateColumn } from '@/components/data-table/columns';
import { Button } from '@/components/ui/button';

export type FormRowAction = 'test' | 'edit' | 'clone' | 'delete';

const ACTION_ICONS = {
  test: FlaskConicalIcon,
  edit: PencilIcon,
  clone: CopyPlusIcon,
  delete: Trash2Icon,
} as const;

/** Copies a form's id; a toast says whether it worked (spec 2 and 8: copied to clipboard). */
export async function copyToClipboard(text: string, t: TFunction): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(t('forms.copied'));
  } catch {
    toast.error(t('forms.copyFailed'));
  }
}

export function formsColumns(
  t: TFunction,
  onAction: (action: FormRowAction, form: FormListItem) => void,
): ColumnDef<FormListItem>[] {
  const unsorted = <T extends ColumnDef<FormListItem>>(column: T): T => ({
    ...column,
    enableSorting: false,
  });
  return [
    unsorted({
      accessorKey: 'name',
      header: t('forms.columns.name'),
      meta: { className: 'font-medium' },
    }),
    unsorted({
      accessorKey: 'id',
      header: t('forms.columns.id'),
      cell: ({ row }) => (
        <span className="inline-flex items-center gap-1">
          <span className="tabular-nums">{row.original.id}</span>
          <CopyButton
            label={t('forms.copyId', { name: row.original.name })}
            onClick={() => void copyToClipboard(String(row.original.id), t)}
          />
        </span>
      ),
    }),
    unsorted(dateColumn<FormListItem>('createdAt', t('forms.columns.createdAt'))),
    unsorted(dateColumn<FormListItem>('updatedAt', t('forms.columns.updatedAt'))),
    {
      id: 'actions',
      header: t('forms.columns.actions'),
      enableSorting: false,
      meta: { className: 'w-0 whitespace-nowrap' },
      cell: ({ row }) => (
        <div className="flex items-center gap-1">
          {(['test', 'edit', 'clone', 'delete'] as const).map((action) => {
            const Icon = ACTION_ICONS[action];
            return (
              <Button
                key={action}
                variant="ghost"
                size="sm"
                aria-label={t(`forms.${action}`, { name: row.original.name })}
                onClick={() => onAction(action, row.original)}
              >
                <Icon aria-hidden="true" />
                {t(`forms.actions.${action}`)}
              </Button>
            );
          })}
        </div>
      ),
    },
  ];
}

function CopyButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button variant="ghost" size="icon" className="size-7" aria-label={label} onClick={onClick}>
      <CopyIcon aria-hidden="true" />
    </Button>
  );
}
