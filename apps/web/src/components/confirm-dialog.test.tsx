import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '@/app/testing/dom';
import { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';

function renderDialog(props: Partial<ConfirmDialogProps> = {}) {
  const handlers = { onConfirm: vi.fn(), onOpenChange: vi.fn() };
  render(
    <ConfirmDialog
      open
      title="Delete country?"
      description="Germany will be deleted."
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

describe('ConfirmDialog', () => {
  it('shows the title and description in an alert dialog', () => {
    renderDialog();
    const dialog = screen.getByRole('alertdialog', { name: 'Delete country?' });
    expect(dialog).toHaveAccessibleDescription('Germany will be deleted.');
  });

  it('runs onConfirm and stays open until the screen closes it', async () => {
    const user = userEvent.setup();
    const { onConfirm, onOpenChange } = renderDialog({ confirmLabel: 'Delete' });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog')).toBeVisible();
  });

  it('closes on Cancel and on Escape', async () => {
    const user = userEvent.setup();
    const { onConfirm, onOpenChange } = renderDialog({ cancelLabel: 'Keep it' });
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    onOpenChange.mockClear();
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('uses the default labels', () => {
    renderDialog();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeVisible();
  });

  it('has a destructive confirm button for deletions', () => {
    renderDialog({ destructive: true, confirmLabel: 'Delete' });
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveClass('bg-destructive');
  });

  it('disables both buttons and cannot be dismissed while pending', async () => {
    const user = userEvent.setup();
    const { onConfirm, onOpenChange } = renderDialog({
      isPending: true,
      confirmLabel: 'Delete',
      pendingLabel: 'Deleting...',
    });
    expect(screen.getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
