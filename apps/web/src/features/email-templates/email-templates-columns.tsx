import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { PRODUCT_SCOPES, PRODUCT_TYPES, type EmailTemplateListItem } from '@console/contracts';
import { actionsColumn, dateColumn } from '@/components/data-table/columns';
import { numberSorting, textSorting } from '@/components/data-table/sorting';

export interface EmailTemplateColumnsOptions {
  onEdit: (template: EmailTemplateListItem) => void;
  onDelete: (template: EmailTemplateListItem) => void;
}

/** 'All', 'AML', ... or 'Unknown ({value})' for a value the spec does not name. */
export function productTypeName(value: number, t: TFunction): string {
  return PRODUCT_TYPES[value] ?? t('emailTemplates.unknown', { value });
}
export function productScopeName(value: number, t: TFunction): string {
  return PRODUCT_SCOPES[value] ?? t('emailTemplates.unknown', { value });
}

/** The active version column: its number, else its id, else 'no active version' (spec 2). */
export function activeVersionText(template: EmailTemplateListItem, t: TFunction): string {
  if (template.activeVersionNumber !== null) return String(template.activeVersionNumber);
  if (template.activeVersionId !== null) return String(template.activeVersionId);
  return t('emailTemplates.noActiveVersion');
}

/** The columns of the templates list (spec part 2, "Email templates list"), all sortable. */
export function emailTemplatesColumns(
  t: TFunction,
  { onEdit, onDelete }: EmailTemplateColumnsOptions,
): ColumnDef<EmailTemplateListItem>[] {
  return [
    {
      accessorKey: 'templateKey',
      header: t('emailTemplates.columns.templateKey'),
      sortingFn: textSorting,
      meta: { className: 'font-medium' },
    },
    {
      accessorKey: 'tenantId',
      header: t('emailTemplates.columns.tenantId'),
      sortingFn: numberSorting,
      cell: ({ getValue }) => getValue<number | null>() ?? t('emailTemplates.instanceLevel'),
    },
    {
      accessorKey: 'partyEntityId',
      header: t('emailTemplates.columns.partyEntityId'),
      sortingFn: textSorting,
      cell: ({ getValue }) => getValue<string | null>() ?? t('emailTemplates.noEntity'),
    },
    {
      accessorKey: 'productType',
      header: t('emailTemplates.columns.productType'),
      sortingFn: numberSorting,
      cell: ({ getValue }) => productTypeName(getValue<number>(), t),
    },
    {
      accessorKey: 'productScope',
      header: t('emailTemplates.columns.productScope'),
      sortingFn: numberSorting,
      cell: ({ getValue }) => productScopeName(getValue<number>(), t),
    },
    dateColumn<EmailTemplateListItem>('updatedAt', t('emailTemplates.columns.updatedAt')),
    {
      id: 'activeVersion',
      accessorFn: (row) => row.activeVersionNumber ?? row.activeVersionId,
      header: t('emailTemplates.columns.activeVersion'),
      sortingFn: numberSorting,
      cell: ({ row }) => activeVersionText(row.original, t),
    },
    actionsColumn(t('emailTemplates.columns.actions'), (template: EmailTemplateListItem) => ({
      editLabel: t('emailTemplates.edit', { key: template.templateKey }),
      onEdit: () => onEdit(template),
      deleteLabel: t('emailTemplates.delete', { key: template.templateKey }),
      onDelete: () => onDelete(template),
    })),
  ];
}
