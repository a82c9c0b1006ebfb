import type { ReactNode } from 'react';
import { PlusIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ExportButton, type ExportButtonProps } from '../export-button';
import { PageHeader } from '../page-header';
import { WaitingForConfiguration } from '../waiting-for-configuration';

/**
 * The frame of a list screen: its header (title, main buttons and the list's Export control),
 * its table (`children`), mounted once the app configuration has loaded, and the dialogs its
 * buttons open.
 */
export function ListScreen({
  title,
  actions,
  exportList,
  dialogs,
  children,
}: {
  title: string;
  actions?: ReactNode;
  /** The list's export: the whole list under the screen's filters (issue 31). */
  exportList?: ExportButtonProps;
  dialogs?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader
        title={title}
        actions={
          exportList || actions ? (
            <>
              {exportList && <ExportButton {...exportList} />}
              {actions}
            </>
          ) : undefined
        }
      />
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
