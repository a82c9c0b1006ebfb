import type { RefObject } from 'react';
import type { QueryKey } from '@tanstack/react-query';
import { ConfirmDialog } from '../confirm-dialog';
import type { DataTableHandle } from './data-table';
import { useDeleteRow, type DeleteRowOptions } from './use-delete-row';

export interface DeleteRowDialogProps<TRow> {
  /** The row to delete while the dialog is open (kept while it closes); null: closed. */
  row: TRow | null;
  open: boolean;
  /** Closes the dialog (dismissed, or the delete finished either way). */
  onClose: () => void;
  /** The screen's delete mutation. */
  mutation: { mutate: DeleteRowOptions<TRow>['mutate']; isPending: boolean };
  queryKey: QueryKey;
  tableRef: RefObject<DataTableHandle | null>;
  title: string;
  description: (row: TRow) => string;
  confirmLabel: string;
  successText: (row: TRow) => string;
  errorText: (error: unknown, row: TRow) => string;
}

/** The confirmation of a list row's deletion, followed by the one delete flow (`useDeleteRow`). */
export function DeleteRowDialog<TRow>({
  row,
  open,
  onClose,
  mutation,
  queryKey,
  tableRef,
  title,
  description,
  confirmLabel,
  successText,
  errorText,
}: DeleteRowDialogProps<TRow>) {
  const deleteRow = useDeleteRow<TRow>({
    mutate: mutation.mutate,
    queryKey,
    tableRef,
    successText,
    errorText,
    onSettled: onClose,
  });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      title={title}
      description={row ? description(row) : ''}
      confirmLabel={confirmLabel}
      destructive
      isPending={mutation.isPending}
      onConfirm={() => row && deleteRow(row)}
    />
  );
}
