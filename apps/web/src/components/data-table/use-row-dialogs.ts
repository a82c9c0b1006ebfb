import { useCallback, useState } from 'react';

/** The dialogs of a list screen: which one is open, and for which row. */
export interface RowDialogs<TKind extends string, TRow> {
  /** The open dialog, or null. */
  open: TKind | null;
  /** The row of the last dialog opened; kept while the dialog closes, so its text stays. */
  row: TRow | null;
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
  const [state, setState] = useState<{ open: TKind | null; row: TRow | null }>({
    open: null,
    row: null,
  });
  const show = useCallback(
    (kind: TKind, row?: TRow) => setState({ open: kind, row: row ?? null }),
    [],
  );
  const close = useCallback(() => setState((current) => ({ ...current, open: null })), []);
  const onOpenChange = useCallback(
    (open: boolean) => {
      if (!open) close();
    },
    [close],
  );
  return { open: state.open, row: state.row, show, close, onOpenChange };
}
