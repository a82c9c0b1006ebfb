import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import '@/app/testing/dom';
import { ApiError } from '@/lib/api-client';
import { ChipsInput, type ChipsAddition } from './chips-input';
import { DialogForm, FormDialog } from './form-dialog';
import { FormField } from './form-field';
import { KeyValueEditor } from './key-value-editor';

/** A contract shaped like ours: limits on strings, a map, a nested period. */
const contract = z.object({
  name: z.string().max(20),
  tags: z.array(z.string().max(12)),
  links: z.record(z.string().max(30), z.string().max(40)),
  period: z.object({ years: z.number() }).optional(),
});

interface Values {
  name: string;
  years: string;
  tags: string[];
  links: { key: string; value: string }[];
}

const resolver: Resolver<Values> = (values) =>
  values.name.trim() === ''
    ? { values: {}, errors: { name: { type: 'validate', message: 'Name is required' } } }
    : { values, errors: {} as Record<string, never> };

const addTag = (tags: string[], draft: string): ChipsAddition => {
  const tag = draft.trim();
  if (!tag) return {};
  return tags.includes(tag)
    ? { problem: `The tag ${tag} is already there.` }
    : { chips: [...tags, tag] };
};

function TestForm({
  onSubmit,
  failureMessage,
}: {
  onSubmit: (values: Values) => Promise<void>;
  failureMessage?: (error: unknown) => string;
}) {
  const form = useForm<Values>({
    resolver,
    defaultValues: { name: '', years: '', tags: ['kyc'], links: [] },
  });
  return (
    <DialogForm
      form={form}
      schema={contract}
      serverFields={{ 'period.years': 'years' }}
      conflictField="name"
      onSubmit={onSubmit}
      failureMessage={failureMessage}
      submitText="Save"
      pendingText="Saving..."
      cancelText="Cancel"
    >
      <FormField<Values> name="name" label="Name" description="What people call it." />
      <FormField<Values> name="years" label="Years" type="number" />
      <ChipsInput<Values>
        name="tags"
        label="Tags"
        placeholder="e.g. aml"
        addLabel="Add tag"
        removeLabel={(tag) => `Remove tag ${tag}`}
        add={addTag}
      />
      <KeyValueEditor<Values>
        name="links"
        keyField="key"
        valueField="value"
        legend="Links"
        keyLabel={(number) => `Key ${number}`}
        valueLabel={(number) => `Value ${number}`}
        removeLabel={(number) => `Remove link ${number}`}
        addLabel="Add link"
      />
    </DialogForm>
  );
}

function renderForm(
  submit: (values: Values) => Promise<void> = async () => undefined,
  failureMessage?: (error: unknown) => string,
) {
  const onSubmit = vi.fn(submit);
  const onOpenChange = vi.fn();
  render(
    <FormDialog open onOpenChange={onOpenChange} title="Edit thing" description="Change it.">
      <TestForm onSubmit={onSubmit} failureMessage={failureMessage} />
    </FormDialog>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Edit thing' });
  return { dialog, onOpenChange, onSubmit, user: userEvent.setup() };
}

afterEach(cleanup);

describe('FormField', () => {
  it('labels its control, describes it, and takes its max length from the contract', () => {
    const { dialog } = renderForm();
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAccessibleDescription('What people call it.');
    expect(name).toHaveAttribute('maxlength', '20');
    expect(name).not.toHaveAttribute('aria-invalid');
    // No limit in the contract, none on the input.
    expect(within(dialog).getByRole('spinbutton', { name: 'Years' })).not.toHaveAttribute(
      'maxlength',
    );
  });

  it('shows its error under the control, marked invalid and described, until it is fixed', async () => {
    const { dialog, user, onSubmit } = renderForm();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('What people call it. Name is required');
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(name, 'Passport');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(within(dialog).queryByText('Name is required')).toBeNull();
  });

  it('keeps the field invalid without its message when messageOf says it elsewhere', async () => {
    function Hidden() {
      const form = useForm<Values>({
        resolver,
        defaultValues: { name: '', years: '', tags: [], links: [] },
      });
      return (
        <DialogForm form={form} onSubmit={vi.fn()} submitText="Save" pendingText="" cancelText="">
          <FormField<Values> name="name" label="Name" messageOf={() => undefined} />
        </DialogForm>
      );
    }
    render(
      <FormDialog open onOpenChange={vi.fn()} title="T" description="D">
        <Hidden />
      </FormDialog>,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).not.toHaveAccessibleDescription();
    expect(screen.queryByText('Name is required')).toBeNull();
  });
});

describe('ChipsInput', () => {
  it('adds with Enter and with the button, refuses a repeat, removes with its button', async () => {
    const { dialog, user, onSubmit } = renderForm();
    const input = within(dialog).getByRole('textbox', { name: 'Tags' });
    const chips = () =>
      within(within(dialog).getByRole('list', { name: 'Tags' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(input).toHaveAttribute('maxlength', '12');
    expect(within(dialog).getByRole('button', { name: 'Add tag' })).toBeDisabled();

    await user.type(input, ' aml {Enter}');
    expect(input).toHaveValue('');
    await user.type(input, 'pep');
    await user.click(within(dialog).getByRole('button', { name: 'Add tag' }));
    expect(chips()).toEqual(['kyc', 'aml', 'pep']);

    await user.type(input, 'kyc{Enter}');
    expect(input).toHaveValue('kyc');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('The tag kyc is already there.');
    await user.type(input, 's');
    expect(input).not.toHaveAttribute('aria-invalid');
    await user.clear(input);

    await user.click(within(dialog).getByRole('button', { name: 'Remove tag aml' }));
    expect(chips()).toEqual(['kyc', 'pep']);
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Thing');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ tags: ['kyc', 'pep'] });
  });
});

describe('KeyValueEditor', () => {
  it('adds and removes rows, each input limited by the contract map', async () => {
    const { dialog, user, onSubmit } = renderForm();
    const add = within(dialog).getByRole('button', { name: 'Add link' });
    await user.click(add);
    await user.click(add);
    expect(within(dialog).getByRole('textbox', { name: 'Key 1' })).toHaveAttribute(
      'maxlength',
      '30',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Value 2' })).toHaveAttribute(
      'maxlength',
      '40',
    );
    await user.type(within(dialog).getByRole('textbox', { name: 'Key 1' }), 'onfido');
    await user.type(within(dialog).getByRole('textbox', { name: 'Key 2' }), 'persona');
    await user.type(within(dialog).getByRole('textbox', { name: 'Value 2' }), 'id_card');

    await user.click(within(dialog).getByRole('button', { name: 'Remove link 1' }));
    expect(within(dialog).queryByRole('textbox', { name: 'Key 2' })).toBeNull();
    expect(within(dialog).getByRole('textbox', { name: 'Key 1' })).toHaveValue('persona');

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Thing');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      links: [{ key: 'persona', value: 'id_card' }],
    });
  });
});

describe('FormDialog', () => {
  const badRequest = (errors: { path: string; message: string }[]) =>
    new ApiError('API request to /api/things failed with status 400', {
      status: 400,
      statusText: 'Bad Request',
      data: { message: `Invalid body: ${errors.map((e) => e.message).join('; ')}`, errors },
    });

  it('shows a 400 under the fields it names, focuses the first, and stays open', async () => {
    const { dialog, user, onOpenChange } = renderForm(async () => {
      throw badRequest([
        { path: 'name', message: 'name must be 20 characters or less' },
        { path: 'period.years', message: 'years must be a number' },
        { path: 'tags.0', message: 'A tag must be 12 characters or less' },
      ]);
    });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.type(name, 'Thing');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText('name must be 20 characters or less')).toBeVisible();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(within(dialog).getByRole('spinbutton', { name: 'Years' })).toHaveAccessibleDescription(
      'years must be a number',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Tags' })).toHaveAccessibleDescription(
      'A tag must be 12 characters or less',
    );
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(name).toHaveValue('Thing');
  });

  it('shows a 409 under the conflict field', async () => {
    const { dialog, user } = renderForm(async () => {
      throw new ApiError('API request to /api/things failed with status 409', {
        status: 409,
        statusText: 'Conflict',
        data: { message: 'A thing named Thing already exists.' },
      });
    });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.type(name, 'Thing');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A thing named Thing already exists.')).toBeVisible();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it("shows the server's message whole when a problem names no field", async () => {
    const { dialog, user } = renderForm(async () => {
      throw badRequest([{ path: 'body', message: 'Expected an object' }]);
    });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Thing');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Invalid body: Expected an object',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).not.toHaveAttribute(
      'aria-invalid',
    );
  });

  it('words a failure as the dialog says, when it gives its own words', async () => {
    const { dialog, user } = renderForm(
      async () => {
        throw new ApiError('failed', { status: 503, statusText: 'Service Unavailable' });
      },
      (error) => `Failed to save the thing: ${(error as ApiError).status}`,
    );
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Thing');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to save the thing: 503',
    );
  });

  it('while saving: Saving..., both buttons disabled, no closing; closes when saved', async () => {
    let finish = () => {};
    const { dialog, user, onOpenChange } = renderForm(
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Thing');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const saving = within(dialog).getByRole('button', { name: 'Saving...' });
    expect(saving).toBeDisabled();
    expect(saving).toHaveAttribute('aria-busy', 'true');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(onOpenChange).not.toHaveBeenCalled();

    finish();
    await vi.waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it('closes on Cancel', async () => {
    const { dialog, user, onOpenChange, onSubmit } = renderForm();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
