import { lazy, Suspense, useState, type ComponentType } from 'react';

/** Whether the dialog has been opened once: from then on it stays mounted, to close smoothly. */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/**
 * A dialog whose code (its form layer, Radix's dialog, its selects) loads when it is first
 * opened, not with the screen that mounts it: a list screen is usable before any dialog is.
 */
export function lazyDialog<Props extends { open: boolean }>(
  load: () => Promise<ComponentType<Props>>,
): ComponentType<Props> {
  const Dialog = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: Props) {
    const opened = useOpenedOnce(props.open);
    return opened ? (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    ) : null;
  };
}
