import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '@/app/testing/dom';
import { groupHtml, type TestField } from '@/test/dynamic-forms';
import {
  DynamicForm,
  FORM_SETUP_EVENT,
  FORM_SETUP_THROTTLE_MS,
  type DynamicFormGroup,
  type DynamicFormHandle,
  type DynamicFormProps,
  type FormSetupDetail,
} from '.';

const SETUP: FormSetupDetail = {
  countries: [
    { id: '840', displayName: 'United States of America' },
    { id: '826', displayName: 'United Kingdom' },
  ],
  documentTypes: [{ id: 'passport', displayName: 'Passport' }],
};
const NO_SETUP: FormSetupDetail = { countries: [], documentTypes: [] };

const COMPANY: TestField[] = [
  { name: 'CompanyName', label: 'Company name', required: true, note: 'As registered.' },
  { name: 'Country', label: 'Country of registration', type: 'Country' },
  { name: 'IdDocument', label: 'Identity document', type: 'DocumentType' },
  { name: 'Regulated', label: 'Regulated', type: 'Checkbox' },
  { name: 'Size', label: 'Size', type: 'Select', options: ['Small', 'Large'] },
  { name: 'Parties', label: 'Parties', type: 'PartyList' },
  { name: 'Internal', label: 'Internal reference', disabled: true },
];

const group = (name: string, fields = COMPANY, summary = false): DynamicFormGroup => ({
  name,
  html: groupHtml(name, fields, { summary }),
});

function renderForm(props: Partial<DynamicFormProps> = {}) {
  const ref = createRef<DynamicFormHandle>();
  const all: DynamicFormProps = {
    formName: 'KycCompany',
    groups: [group('Company')],
    setup: SETUP,
    ...props,
  };
  const result = render(<DynamicForm ref={ref} {...all} />);
  const container = () => result.container.querySelector<HTMLElement>('.df-form')!;
  return {
    ...result,
    ref,
    container,
    rerenderWith: (more: Partial<DynamicFormProps>) =>
      result.rerender(<DynamicForm ref={ref} {...all} {...more} />),
  };
}

/** The options of a select, as [value, text] pairs. */
const optionsOf = (select: HTMLElement) =>
  Array.from((select as HTMLSelectElement).options).map((option) => [option.value, option.text]);

afterEach(() => {
  vi.useRealTimers();
});

describe('dynamic form: sanitising the server HTML', () => {
  it('keeps the form controls and their attributes', () => {
    const { container } = renderForm({ setup: NO_SETUP });
    const form = container();
    expect(form).toHaveAttribute('data-form', 'KycCompany');
    const name = screen.getByRole('textbox', { name: /Company name/ });
    expect(name).toHaveAttribute('name', 'DataObject.CompanyName');
    expect(name).toBeRequired();
    expect(name).toHaveAccessibleDescription(/^As registered\.\s*$/);
    expect(screen.getByRole('group', { name: 'Company' })).toHaveAttribute('data-group', 'Company');
    expect(screen.getByRole('combobox', { name: 'Size' })).toHaveAttribute(
      'name',
      'DataObject.Size',
    );
    expect(screen.getByRole('checkbox', { name: 'Regulated' })).toHaveAttribute('value', 'true');
    expect(screen.getByRole('textbox', { name: 'Internal reference' })).toBeDisabled();
    expect(form.querySelector('[data-field="Parties"] textarea')).toHaveAttribute(
      'data-party-list',
    );
    expect(form.querySelector('.df-error')).toHaveAttribute('hidden');
    expect(form.querySelector('.df-required')).toHaveAttribute('aria-hidden', 'true');
  });

  it('keeps maxlength, pattern and the column span, and drops what could run or restyle', () => {
    const hostile =
      '<fieldset class="df-group" data-group="G"><legend class="df-group-title">G</legend>' +
      '<div class="df-grid"><div class="df-field df-span-4" data-field="Code" data-label="Code" data-type="Text">' +
      '<label class="df-label" for="df-Code">Code<img src="x" onerror="window.__hacked = true"></label>' +
      '<input class="df-input" id="df-Code" name="DataObject.Code" type="text" maxlength="8" pattern="[A-Z]+" style="display:none" onfocus="window.__hacked = true">' +
      '<script>window.__hacked = true</script>' +
      '<input name="DataObject.Go" type="submit" value="Go"><button formaction="javascript:alert(1)">Send</button>' +
      '<a href="javascript:alert(1)">more</a><form action="/elsewhere"><input name="DataObject.Inner"></form>' +
      '<style>.df-field{display:none}</style><iframe src="https://example.org"></iframe>' +
      '</div></div></fieldset>';
    const { container } = renderForm({ groups: [{ name: 'G', html: hostile }], setup: NO_SETUP });
    const form = container();
    const code = screen.getByRole('textbox', { name: 'Code' });
    expect(code).toHaveAttribute('maxlength', '8');
    expect(code).toHaveAttribute('pattern', '[A-Z]+');
    expect(code).not.toHaveAttribute('style');
    expect(code).not.toHaveAttribute('onfocus');
    expect(form.querySelector('.df-span-4')).not.toBeNull();
    expect(form.querySelector('script, img, style, iframe, button, form, a')).toBeNull();
    expect(form.querySelector('[onerror], [onfocus], [style], [href], [formaction]')).toBeNull();
    expect(form.innerHTML).not.toMatch(/javascript:|__hacked/);
    // An input may not submit: a type other than the fields' falls back to text.
    expect(form.querySelector('input[name="DataObject.Go"]')).not.toHaveAttribute('type');
    // The nested form's input stays, without its form.
    expect(form.querySelector('input[name="DataObject.Inner"]')).not.toBeNull();
    expect((window as { __hacked?: boolean }).__hacked).toBeUndefined();
  });
});

describe('dynamic form: the setup event', () => {
  it('is dispatched on the container when HTML is injected, at most once per 300 ms (leading and trailing)', () => {
    vi.useFakeTimers();
    const events: FormSetupDetail[] = [];
    const listener = (event: Event) => events.push((event as CustomEvent<FormSetupDetail>).detail);
    // Capturing on the document sees the event dispatched on the container (it does not bubble).
    document.addEventListener(FORM_SETUP_EVENT, listener, true);
    try {
      const { rerenderWith } = renderForm({ groups: [group('A'), { name: 'B' }, { name: 'C' }] });
      expect(events).toHaveLength(1); // leading: at once
      expect(events[0]).toBe(SETUP);

      rerenderWith({ groups: [group('A'), group('B'), { name: 'C' }] });
      act(() => vi.advanceTimersByTime(100));
      rerenderWith({ groups: [group('A'), group('B'), group('C')] });
      expect(events).toHaveLength(1); // both wait for the end of the interval
      act(() => vi.advanceTimersByTime(FORM_SETUP_THROTTLE_MS - 101));
      expect(events).toHaveLength(1);
      act(() => vi.advanceTimersByTime(1));
      expect(events).toHaveLength(2); // trailing: once for both

      act(() => vi.advanceTimersByTime(1000));
      expect(events).toHaveLength(2);
      // New choices (the lists arrived late) go out too.
      const later = { ...SETUP, documentTypes: [] };
      rerenderWith({ groups: [group('A'), group('B'), group('C')], setup: later });
      expect(events).toHaveLength(3);
      expect(events[2]).toBe(later);
    } finally {
      document.removeEventListener(FORM_SETUP_EVENT, listener, true);
    }
  });

  it('fills the country and document type selects, keeping their pre-filled value', () => {
    renderForm({ values: { 'DataObject.Country': '826' } });
    const country = screen.getByRole('combobox', { name: 'Country of registration' });
    expect(optionsOf(country)).toEqual([
      ['', ''],
      ['840', 'United States of America'],
      ['826', 'United Kingdom'],
    ]);
    expect(country).toHaveValue('826');
    const document = screen.getByRole('combobox', { name: 'Identity document' });
    expect(optionsOf(document)).toEqual([
      ['', ''],
      ['passport', 'Passport'],
    ]);
    expect(document).toHaveValue('');
  });

  it('keeps a pre-filled choice until its options arrive, and a chosen one afterwards', async () => {
    const user = userEvent.setup();
    const values = { 'DataObject.Country': '840', 'DataObject.IdDocument': 'retired' };
    const { rerenderWith } = renderForm({ setup: NO_SETUP, values });
    const country = screen.getByRole('combobox', { name: 'Country of registration' });
    // No choices (yet): the stored value stays, as an option of its own.
    expect(country).toHaveValue('840');
    expect(optionsOf(country)).toEqual([
      ['', ''],
      ['840', '840'],
    ]);
    rerenderWith({ setup: SETUP, values });
    // The setup event of the new choices follows the first within 300 ms.
    await waitFor(() => expect(optionsOf(country)).toHaveLength(3));
    expect(country).toHaveValue('840');
    expect(country).toHaveDisplayValue('United States of America');
    // A stored value that is no longer a choice stays too.
    const document = screen.getByRole('combobox', { name: 'Identity document' });
    expect(document).toHaveValue('retired');

    await user.selectOptions(country, 'United Kingdom');
    const events = vi.fn();
    country.closest('.df-form')!.addEventListener(FORM_SETUP_EVENT, events);
    rerenderWith({ setup: { ...SETUP }, values });
    await waitFor(() => expect(events).toHaveBeenCalled());
    expect(country).toHaveValue('826');
  });
});

describe('dynamic form: values', () => {
  it('pre-fills each control by input name', () => {
    renderForm({
      values: {
        'DataObject.CompanyName': 'Acme Corporation',
        'DataObject.Regulated': 'true',
        'DataObject.Size': 'Large',
        'DataObject.Parties': 'Jane Doe\nJohn Roe',
        'DataObject.Unknown': 'ignored',
      },
    });
    expect(screen.getByRole('textbox', { name: /Company name/ })).toHaveValue('Acme Corporation');
    expect(screen.getByRole('checkbox', { name: 'Regulated' })).toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Size' })).toHaveValue('Large');
    expect(screen.getByRole('textbox', { name: 'Parties' })).toHaveValue('Jane Doe\nJohn Roe');
  });

  it('gathers the DataObject inputs by storage name: checkboxes as true/false, disabled ones skipped', async () => {
    const user = userEvent.setup();
    const extra =
      '<input name="csrf" value="not mine"><input name="DataObject." value="no key">' +
      '<fieldset disabled><input name="DataObject.Locked" value="x"></fieldset>';
    const { ref } = renderForm({
      groups: [
        group('Company'),
        {
          name: 'Files',
          html: groupHtml('Files', [{ name: 'Proof', label: 'Proof', type: 'FileUpload' }]) + extra,
        },
      ],
      values: { 'DataObject.Proof': 'old.pdf' },
    });
    await user.type(screen.getByRole('textbox', { name: /Company name/ }), 'Acme');
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Country of registration' }),
      'United Kingdom',
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Size' }), 'Small');
    expect(ref.current!.collect()).toEqual({
      DataObject: {
        CompanyName: 'Acme',
        Country: '826',
        IdDocument: '',
        Regulated: 'false',
        Size: 'Small',
        Parties: '',
        // No file chosen: the one the record holds.
        Proof: 'old.pdf',
      },
      files: {},
    });

    await user.click(screen.getByRole('checkbox', { name: 'Regulated' }));
    const file = new File(['%PDF'], 'proof.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('Proof'), file);
    const collected = ref.current!.collect();
    expect(collected.DataObject).toMatchObject({ Regulated: 'true', Proof: 'proof.pdf' });
    expect(collected.files).toEqual({ 'DataObject.Proof': file });
  });

  it('gathers inputs named like prototype members as plain values, of their own', () => {
    // A row older than the storage-name rule (keys.ts) may still render such names.
    const { ref } = renderForm({
      groups: [
        group('Odd', [
          { name: '__proto__', label: 'Proto' },
          { name: 'constructor', label: 'Constructor' },
        ]),
      ],
      values: { 'DataObject.__proto__': 'p', 'DataObject.constructor': 'c' },
    });
    const { DataObject } = ref.current!.collect();
    expect(Object.entries(DataObject)).toEqual([
      ['__proto__', 'p'],
      ['constructor', 'c'],
    ]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('renders what the caller shows for a FileUpload field under its input', () => {
    renderForm({
      groups: [
        {
          name: 'Files',
          html: groupHtml('Files', [{ name: 'Proof', label: 'Proof', type: 'FileUpload' }]),
        },
      ],
      values: { 'DataObject.Proof': 'old.pdf' },
      renderFile: (file) => <span>{`${file.storageName}: ${file.value}`}</span>,
    });
    const field = screen.getByLabelText('Proof').closest<HTMLElement>('[data-field]')!;
    expect(within(field).getByText('Proof: old.pdf')).toBeVisible();
  });
});

describe('dynamic form: server errors', () => {
  it('marks the fields whose label the errors name, with their messages joined by commas, in the summary too', () => {
    const { rerenderWith, container } = renderForm({ groups: [group('Company', COMPANY, true)] });
    rerenderWith({
      groups: [group('Company', COMPANY, true)],
      errors: {
        'Company name': ['Company name is required.', 'Too short.'],
        Size: ['Size must be one of its options.'],
        Ghost: ['Not a field of this form.'],
      },
    });
    const name = screen.getByRole('textbox', { name: /Company name/ });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(
      'As registered. Company name is required., Too short.',
    );
    expect(name).toHaveFocus();
    expect(name.closest('[data-field]')).toHaveClass('df-invalid');
    expect(screen.getByRole('combobox', { name: 'Size' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('checkbox', { name: 'Regulated' })).not.toHaveAttribute('aria-invalid');
    const summary = container().querySelector<HTMLElement>('[data-validation-summary]')!;
    expect(summary).not.toHaveAttribute('hidden');
    expect(
      within(summary)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Company name: Company name is required., Too short.',
      'Size: Size must be one of its options.',
    ]);

    rerenderWith({ groups: [group('Company', COMPANY, true)], errors: null });
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(name.closest('[data-field]')).not.toHaveClass('df-invalid');
    expect(container().querySelector('#df-CompanyName-error')).toHaveAttribute('hidden');
    expect(summary).toHaveAttribute('hidden');
  });

  it('finds no message for a field whose label every object has (constructor), unless named', () => {
    const fields: TestField[] = [
      { name: 'Builder', label: 'constructor' },
      { name: 'Printer', label: 'toString' },
    ];
    const { rerenderWith } = renderForm({ groups: [group('Odd', fields, true)] });
    rerenderWith({ groups: [group('Odd', fields, true)], errors: { toString: ['Too short.'] } });
    expect(screen.getByRole('textbox', { name: 'constructor' })).not.toHaveAttribute(
      'aria-invalid',
    );
    expect(screen.getByRole('textbox', { name: 'toString' })).toHaveAccessibleDescription(
      'Too short.',
    );
  });

  it('shows a loading group and a failed group in their place', () => {
    renderForm({
      groups: [{ name: 'Waiting' }, group('Company'), { name: 'Broken', error: 'Not found' }],
    });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the field group Waiting...');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The field group Broken could not be loaded: Not found',
    );
  });
});

describe('dynamic form: keyboard', () => {
  it('is filled in with the keyboard alone, field after field in the order of the HTML', async () => {
    const user = userEvent.setup();
    const { ref } = renderForm({ setup: NO_SETUP });
    await user.tab();
    expect(screen.getByRole('textbox', { name: /Company name/ })).toHaveFocus();
    await user.keyboard('Acme');
    await user.tab();
    expect(screen.getByRole('combobox', { name: 'Country of registration' })).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('checkbox', { name: 'Regulated' })).toHaveFocus();
    await user.keyboard(' ');
    expect(ref.current!.collect().DataObject).toMatchObject({
      CompanyName: 'Acme',
      Regulated: 'true',
    });
  });
});
