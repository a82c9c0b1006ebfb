import type { ReactNode } from 'react';
import { PlusIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { PageHeader } from '../page-header';
import { WaitingForConfiguration } from '../waiting-for-configuration';

/**
 * The frame of a list screen: its header (title and main buttons), its table (`children`),
 * mounted once the app configuration has loaded, and the dialogs its buttons open.
 */
export function ListScreen({
  title,
  actions,
  dialogs,
  children,
}: {
  title: string;
  actions?: ReactNode;
  dialogs?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} actions={actions} />
      <WaitingForConfiguration>{children}</WaitingForConfiguration>
      {dialogs}
    </>
  );
}

/**
 * A list screen's add button. Without `onClick` it is shown disabled (countries: spec "add
 * country (disabled)").
 */
export function AddButton({ label, onClick }: { label: string; onClick?: () => void }) {
  return (
    <Button disabled={!onClick} onClick={onClick}>
      <PlusIcon aria-hidden="true" />
      {label}
    </Button>
  );
}
