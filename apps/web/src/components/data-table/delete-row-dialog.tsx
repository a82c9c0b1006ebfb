import type { RefObject } from 'react';
import type { QueryKey } from '@tanstack/react-query';
import { lazyDialog } from '../lazy-dialog';
import type { DataTableHandle } from './data-table';
import { useDeleteRow, type DeleteRowOptions } from './use-delete-row';
import type { RowDialogs } from './use-row-dialogs';

/** The one ConfirmDialog, its code (Radix's alert dialog) loaded when it is first opened. */
export const LazyConfirmDialog = lazyDialog(
  async () => (await import('../confirm-dialog')).ConfirmDialog,
);

export interface DeleteRowDialogProps<TRow> {
  /** The screen's dialogs; this one is open when they show 'delete' for a row. */
  dialogs: Pick<RowDialogs<string, TRow>, 'open' | 'row' | 'close' | 'onOpenChange'>;
  /** The screen's delete mutation. */
  mutation: { mutate: DeleteRowOptions<TRow>['mutate']; isPending: boolean };
  queryKey: QueryKey;
  tableRef: RefObject<DataTableHandle | null>;
  title: string;
  description: (row: TRow) => string;
  confirmLabel: string;
  successText: (row: TRow) => string;
  errorText: (error: unknown, row: TRow) => string;
  errorDescription?: DeleteRowOptions<TRow>['errorDescription'];
}

/** The confirmation of a list row's deletion, followed by the one delete flow (`useDeleteRow`). */
export function DeleteRowDialog<TRow>({
  dialogs: { open, row, close, onOpenChange },
  mutation,
  queryKey,
  tableRef,
  title,
  description,
  confirmLabel,
  successText,
  errorText,
  errorDescription,
}: DeleteRowDialogProps<TRow>) {
  const deleteRow = useDeleteRow<TRow>({
    mutate: mutation.mutate,
    queryKey,
    tableRef,
    successText,
    errorText,
    errorDescription,
    onSettled: close,
  });
  return (
    <LazyConfirmDialog
      open={open === 'delete'}
      onOpenChange={onOpenChange}
      title={title}
      description={row ? description(row) : ''}
      confirmLabel={confirmLabel}
      destructive
      isPending={mutation.isPending}
      onConfirm={() => row && deleteRow(row)}
    />
  );
}
