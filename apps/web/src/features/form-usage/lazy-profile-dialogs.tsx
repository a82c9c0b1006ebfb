/**
 * The profile dialogs as the tenants and entities screens mount them: their code (the dynamic
 * form host and DOMPurify among it) loads when a profile is first opened, not with the screen.
 */
import { lazy, Suspense, useState, type ComponentProps } from 'react';

const TenantDialog = lazy(async () => ({
  default: (await import('./profile-dialog')).TenantProfileDialog,
}));
const EntityDialog = lazy(async () => ({
  default: (await import('./profile-dialog')).EntityProfileDialog,
}));

type TenantProps = ComponentProps<typeof TenantDialog>;
type EntityProps = ComponentProps<typeof EntityDialog>;

/** Whether the dialog has been opened once: from then on it stays mounted, to close smoothly. */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

export function TenantProfileDialog(props: TenantProps) {
  const opened = useOpenedOnce(props.open);
  return opened ? (
    <Suspense fallback={null}>
      <TenantDialog {...props} />
    </Suspense>
  ) : null;
}

export function EntityProfileDialog(props: EntityProps) {
  const opened = useOpenedOnce(props.open);
  return opened ? (
    <Suspense fallback={null}>
      <EntityDialog {...props} />
    </Suspense>
  ) : null;
}
