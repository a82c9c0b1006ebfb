import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './ui/alert-dialog';
import { Button } from './ui/button';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  /** Runs on confirm. The dialog stays open: the screen closes it when the work succeeded. */
  onConfirm: () => void;
  /** Defaults to common.confirm. */
  confirmLabel?: string;
  /** Defaults to common.cancel. */
  cancelLabel?: string;
  /** A red confirm button, for deletions. */
  destructive?: boolean;
  /** The work runs: both buttons are disabled, the dialog cannot be dismissed. */
  isPending?: boolean;
  /** Confirm label while pending; defaults to common.working. */
  pendingLabel?: string;
  /** Confirm not possible yet (e.g. a typed confirmation is missing). */
  confirmDisabled?: boolean;
  /** Extra content under the description, e.g. the error of a failed attempt. */
  children?: ReactNode;
}

/** The one confirmation dialog of the app (deletes, resets, ...), on Radix AlertDialog. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  onConfirm,
  confirmLabel,
  cancelLabel,
  destructive = false,
  isPending = false,
  pendingLabel,
  confirmDisabled = false,
  children,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (!isPending) onOpenChange(next);
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={isPending}>
            {cancelLabel ?? t('common.cancel')}
          </AlertDialogCancel>
          <Button
            variant={destructive ? 'destructive' : 'default'}
            disabled={isPending || confirmDisabled}
            aria-busy={isPending || undefined}
            onClick={onConfirm}
          >
            {isPending
              ? (pendingLabel ?? t('common.working'))
              : (confirmLabel ?? t('common.confirm'))}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
