import { useCallback, useState } from 'react';

/** The dialogs of a list screen: which one is open, and for which row. */
export interface RowDialogs<TKind extends string, TRow> {
  /** The open dialog, or null. */
  open: TKind | null;
  /** The row of the last dialog opened; kept while the dialog closes, so its text stays. */
  row: TRow | null;
  /** The last dialog opened, kept while it closes (a dialog with several modes keeps its own). */
  shown: TKind | null;
  /** Opens a dialog, for a row or (e.g. 'add') for none. */
  show: (kind: TKind, row?: TRow) => void;
  close: () => void;
  /** A dialog's `onOpenChange`: dismissing it closes it. */
  onOpenChange: (open: boolean) => void;
}

/**
 * The one dialog state of a list screen (add, edit, delete, ... of a row). `show` and `close`
 * keep their identity, so column definitions built with them need not be rebuilt.
 */
export function useRowDialogs<TKind extends string, TRow>(): RowDialogs<TKind, TRow> {
  const [state, setState] = useState<{
    open: TKind | null;
    row: TRow | null;
    shown: TKind | null;
  }>({ open: null, row: null, shown: null });
  const show = useCallback(
    (kind: TKind, row?: TRow) => setState({ open: kind, row: row ?? null, shown: kind }),
    [],
  );
  const close = useCallback(() => setState((current) => ({ ...current, open: null })), []);
  const onOpenChange = useCallback(
    (open: boolean) => {
      if (!open) close();
    },
    [close],
  );
  return { open: state.open, row: state.row, shown: state.shown, show, close, onOpenChange };
}
