import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { FormField } from '@console/contracts';
import { actionsColumn, apiReferencesColumn, tagsColumn } from '@/components/data-table/columns';

export interface FormFieldColumnsOptions {
  onEdit: (field: FormField) => void;
  onClone: (field: FormField) => void;
  onDelete: (field: FormField) => void;
}

/**
 * The columns of the form fields table (spec part 2, section 2, "Form fields list"). The list
 * keeps the spec's one order (UI group, order, display name): no column sorts it otherwise.
 */
export function formFieldsColumns(
  t: TFunction,
  { onEdit, onClone, onDelete }: FormFieldColumnsOptions,
): ColumnDef<FormField>[] {
  const columns: ColumnDef<FormField>[] = [
    { accessorKey: 'uiGroup', header: t('formFields.columns.uiGroup') },
    { accessorKey: 'order', header: t('formFields.columns.order') },
    {
      accessorKey: 'displayName',
      header: t('formFields.columns.displayName'),
      meta: { className: 'font-medium' },
    },
    {
      accessorKey: 'name',
      header: t('formFields.columns.storageName'),
      meta: { className: 'font-mono' },
    },
    {
      id: 'type',
      // 'Country' shows as 'Country Selector' (spec 3).
      accessorFn: (field) => t(`formFields.types.${field.type}`),
      header: t('formFields.columns.type'),
    },
    { accessorKey: 'section', header: t('formFields.columns.section') },
    tagsColumn<FormField>(t('formFields.columns.tags')),
    apiReferencesColumn<FormField>(t('formFields.columns.apiReferences')),
    actionsColumn(t('formFields.columns.actions'), (field: FormField) => ({
      editLabel: t('formFields.edit', { name: field.name }),
      onEdit: () => onEdit(field),
      cloneLabel: t('formFields.clone', { name: field.name }),
      onClone: () => onClone(field),
      deleteLabel: t('formFields.delete', { name: field.name }),
      onDelete: () => onDelete(field),
    })),
  ];
  return columns.map((column) => ({ ...column, enableSorting: false }));
}
