import type { RefObject } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ApiError } from '@/lib/api-client';
import type { DataTableHandle } from './data-table';

export interface DeleteRowOptions<TRow> {
  /** The screen's delete mutation (`useMutation(...).mutate`). */
  mutate: (
    row: TRow,
    callbacks: { onSuccess: () => void; onError: (error: unknown) => void },
  ) => void;
  /** The list to reload after the delete. */
  queryKey: QueryKey;
  tableRef: RefObject<DataTableHandle | null>;
  successText: (row: TRow) => string;
  /** The spec's message for each failure (403, 404, 409, other). */
  errorText: (error: unknown, row: TRow) => string;
  /** A second line of the failure's toast (e.g. the server's reason), if any. */
  errorDescription?: (error: unknown, row: TRow) => string | undefined;
  /** Closes the confirmation dialog, whatever the outcome. */
  onSettled: () => void;
}

/**
 * The one way a list screen deletes a row after its confirmation: a toast either way, the table
 * stepping back a page when the page's last row went (spec: common behaviour of list screens),
 * and the list reloaded.
 */
export function useDeleteRow<TRow>({
  mutate,
  queryKey,
  tableRef,
  successText,
  errorText,
  errorDescription,
  onSettled,
}: DeleteRowOptions<TRow>): (row: TRow) => void {
  const queryClient = useQueryClient();
  return (row) =>
    mutate(row, {
      onSuccess: () => {
        toast.success(successText(row));
        onSettled();
        // Before the list reloads: the table steps back when this was its page's last row.
        tableRef.current?.rowDeleted();
        void queryClient.invalidateQueries({ queryKey });
      },
      onError: (error) => {
        toast.error(errorText(error, row), { description: errorDescription?.(error, row) });
        onSettled();
        // Someone else deleted it already: show the list as it is.
        if (error instanceof ApiError && error.status === 404) {
          void queryClient.invalidateQueries({ queryKey });
        }
      },
    });
}
