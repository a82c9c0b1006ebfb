import type { ReactNode } from 'react';
import { CopyPlusIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import { Button } from '@/components/ui/button';

export interface RowActionsProps {
  /** Accessible name of the edit button; without it the row has no edit button. */
  editLabel?: string;
  /** Without it the edit button is shown disabled (e.g. countries: spec "edit (disabled)"). */
  onEdit?: () => void;
  /** Accessible name of the clone button; without it the row has none. */
  cloneLabel?: string;
  onClone?: () => void;
  deleteLabel: string;
  onDelete: () => void;
  /** The row's other actions (a tenant's Profile), before edit and delete. */
  children?: ReactNode;
}

/** The edit, clone and delete icon buttons of a list row, the same on every list screen. */
export function RowActions({
  editLabel,
  onEdit,
  cloneLabel,
  onClone,
  deleteLabel,
  onDelete,
  children,
}: RowActionsProps) {
  return (
    <div className="flex items-center gap-1">
      {children}
      {editLabel !== undefined && (
        <Button
          variant="ghost"
          size="icon"
          disabled={!onEdit}
          aria-label={editLabel}
          onClick={onEdit}
        >
          <PencilIcon aria-hidden="true" />
        </Button>
      )}
      {cloneLabel !== undefined && (
        <Button variant="ghost" size="icon" aria-label={cloneLabel} onClick={onClone}>
          <CopyPlusIcon aria-hidden="true" />
        </Button>
      )}
      <Button variant="ghost" size="icon" aria-label={deleteLabel} onClick={onDelete}>
        <Trash2Icon aria-hidden="true" />
      </Button>
    </div>
  );
}
