import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import '@/app/testing/dom';
import { CheckboxField } from './checkbox-field';
import { DialogForm, FormDialog } from './form-dialog';

interface Values {
  required: boolean;
}

function TestForm({ onSubmit }: { onSubmit: (values: Values) => Promise<void> }) {
  const form = useForm<Values>({ defaultValues: { required: false } });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submitText="Save" pendingText="" cancelText="">
      <CheckboxField<Values> name="required" label="Required" description="Must be filled in." />
    </DialogForm>
  );
}

describe('CheckboxField', () => {
  it('is a labelled, described checkbox whose value is a boolean', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => undefined);
    render(
      <FormDialog open onOpenChange={vi.fn()} title="T" description="D">
        <TestForm onSubmit={onSubmit} />
      </FormDialog>,
    );
    const checkbox = screen.getByRole('checkbox', { name: 'Required' });
    expect(checkbox).toHaveAccessibleDescription('Must be filled in.');
    expect(checkbox).not.toBeChecked();
    await user.click(screen.getByText('Required'));
    expect(checkbox).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ required: true });
  });
});
