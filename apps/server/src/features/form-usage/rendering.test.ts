import {
  FORM_FIELD_TYPES,
  type FormDefinition,
  type FormField,
  type FormFieldType,
} from '@console/contracts';
import { describe, expect, it } from 'vitest';
import { aFormField } from '@console/contracts/testing';
import {
  attr,
  classesOf,
  elements,
  hasAttr,
  oneWithAttr,
  parseHtml,
  textOf,
  withAttr,
  type HtmlElement,
} from '../../../test/html.ts';
import {
  columnSpan,
  renderCatalogueGroup,
  renderForm,
  renderFormGroup,
  renderGroup,
  type RenderOptions,
} from './rendering.ts';

/**
 * The HTML of forms and groups (forms-design.md, "Rendered HTML"), checked through a real HTML
 * parser: its structure per field type, and that no value from the database can add an element
 * or an attribute.
 */

function formField(more: Partial<FormField> & { name: string }): FormField {
  return aFormField({ displayName: `${more.name} label`, ...more });
}

function definition(
  fields: FormField[],
  more: Partial<FormDefinition> = {},
): Pick<
  FormDefinition,
  'name' | 'fields' | 'uiGroupOrder' | 'colSpanOverride' | 'field_definitions'
> {
  return {
    name: 'KycForm',
    fields: fields.map((field) => field.id),
    uiGroupOrder: [],
    colSpanOverride: 0,
    field_definitions: fields,
    ...more,
  };
}

const staff: RenderOptions = {
  roles: ['staff'],
  hasEditPermission: true,
  showValidationSummary: false,
  colSpanOverride: 0,
};

/** The HTML of one group, parsed; fails on any parse error. */
function parsedGroup(fields: FormField[], options: Partial<RenderOptions> = {}) {
  const { root, errors } = parseHtml(renderGroup('General', fields, { ...staff, ...options }));
  expect(errors).toEqual([]);
  return root;
}

/** A field's cell, label, control, note and error line. */
function partsOf(root: ReturnType<typeof parsedGroup>, name: string) {
  const cell = oneWithAttr(root, 'data-field', name);
  const control = oneWithAttr(cell, 'name', `DataObject.${name}`);
  const label = elements(cell).find((element) => element.tagName === 'label')!;
  const note = withAttr(cell, 'id', `df-${name}-note`)[0];
  const error = oneWithAttr(cell, 'id', `df-${name}-error`);
  return { cell, control, label, note, error };
}

/** What each type renders: the element, its type attribute, and what else it carries. */
const CONTROLS: Record<FormFieldType, { tag: string; type?: string; data?: string[] }> = {
  Text: { tag: 'input', type: 'text' },
  Email: { tag: 'input', type: 'email' },
  PhoneNumber: { tag: 'input', type: 'tel' },
  Date: { tag: 'input', type: 'date' },
  DateTime: { tag: 'input', type: 'datetime-local' },
  Checkbox: { tag: 'input', type: 'checkbox' },
  DropdownYesNo: { tag: 'select' },
  Select: { tag: 'select' },
  Country: { tag: 'select', data: ['data-choices'] },
  DocumentType: { tag: 'select', data: ['data-choices'] },
  FileUpload: { tag: 'input', type: 'file' },
  PartyList: { tag: 'textarea', data: ['data-party-list'] },
};

describe('one element per field type', () => {
  it.each(FORM_FIELD_TYPES)('%s', (type) => {
    const field = formField({
      name: `Field${type}`,
      type,
      ...(type === 'Select' ? { options: ['Low', 'High'] } : {}),
    });
    const root = parsedGroup([field]);
    const { cell, control, label, note, error } = partsOf(root, field.name);
    const expected = CONTROLS[type];

    expect(classesOf(cell)).toEqual(['df-field', `df-span-${columnSpan(field, 0)}`]);
    expect(attr(cell, 'data-type')).toBe(type);
    expect(attr(cell, 'data-label')).toBe(field.displayName);
    expect(control.tagName).toBe(expected.tag);
    expect(attr(control, 'type')).toBe(expected.type);
    expect(attr(control, 'id')).toBe(`df-${field.name}`);
    expect(classesOf(control)).toContain('df-input');
    for (const name of expected.data ?? []) expect(hasAttr(control, name)).toBe(true);
    expect(attr(label, 'for')).toBe(`df-${field.name}`);
    expect(classesOf(label)).toEqual(['df-label']);
    expect(textOf(label)).toBe(field.displayName);
    expect(note).toBeUndefined();
    expect(hasAttr(error, 'hidden')).toBe(true);
    expect(classesOf(error)).toEqual(['df-error']);
    expect(attr(control, 'aria-describedby')).toBe(`df-${field.name}-error`);
    // Not required, not disabled, no value rendered: the client fills stored values in.
    for (const name of ['required', 'disabled', 'value', 'maxlength', 'pattern']) {
      if (type === 'Checkbox' && name === 'value') continue;
      expect(hasAttr(control, name), name).toBe(false);
    }
  });

  it('Checkbox sends "true" when checked', () => {
    const { control } = partsOf(parsedGroup([formField({ name: 'Ok', type: 'Checkbox' })]), 'Ok');
    expect(attr(control, 'value')).toBe('true');
    expect(classesOf(control)).toEqual(['df-input', 'df-checkbox']);
  });

  it('DropdownYesNo offers "", Yes and No', () => {
    const { control } = partsOf(
      parsedGroup([formField({ name: 'Pep', type: 'DropdownYesNo' })]),
      'Pep',
    );
    const options = elements(control).filter((element) => element.tagName === 'option');
    expect(options.map((option) => [attr(option, 'value'), textOf(option)])).toEqual([
      ['', ''],
      ['Yes', 'Yes'],
      ['No', 'No'],
    ]);
  });

  it('Select offers "" and its options, in order', () => {
    const field = formField({ name: 'Risk', type: 'Select', options: ['Low', 'Medium', 'High'] });
    const { control } = partsOf(parsedGroup([field]), 'Risk');
    const options = elements(control).filter((element) => element.tagName === 'option');
    expect(options.map((option) => attr(option, 'value'))).toEqual(['', 'Low', 'Medium', 'High']);
    expect(options.map(textOf)).toEqual(['', 'Low', 'Medium', 'High']);
  });

  it('Country and DocumentType are selects the client fills (only the empty option)', () => {
    const root = parsedGroup([
      formField({ name: 'Nationality', type: 'Country' }),
      formField({ name: 'IdType', type: 'DocumentType' }),
    ]);
    const country = partsOf(root, 'Nationality').control;
    const documentType = partsOf(root, 'IdType').control;
    expect(attr(country, 'data-choices')).toBe('countries');
    expect(attr(documentType, 'data-choices')).toBe('documentTypes');
    for (const select of [country, documentType]) {
      const options = elements(select).filter((element) => element.tagName === 'option');
      expect(options.map((option) => attr(option, 'value'))).toEqual(['']);
    }
  });

  it('Text is an input up to 255 characters (or none) and a textarea above', () => {
    const root = parsedGroup([
      formField({ name: 'Short', maxLength: 255, pattern: '[A-Z]+' }),
      formField({ name: 'Free' }),
      formField({ name: 'Long', maxLength: 256, pattern: '[A-Z]+' }),
    ]);
    const short = partsOf(root, 'Short').control;
    expect([short.tagName, attr(short, 'maxlength'), attr(short, 'pattern')]).toEqual([
      'input',
      '255',
      '[A-Z]+',
    ]);
    expect(partsOf(root, 'Free').control.tagName).toBe('input');
    const long = partsOf(root, 'Long').control;
    // A textarea has no pattern attribute: the server checks the pattern.
    expect([long.tagName, attr(long, 'maxlength'), attr(long, 'pattern')]).toEqual([
      'textarea',
      '256',
      undefined,
    ]);
  });

  it('carries maxlength and pattern on Email and PhoneNumber, maxlength on PartyList', () => {
    const root = parsedGroup([
      formField({ name: 'Mail', type: 'Email', maxLength: 100, pattern: '.+@bank\\.com' }),
      formField({ name: 'Phone', type: 'PhoneNumber', maxLength: 20, pattern: '\\+[0-9 ]+' }),
      formField({ name: 'Parties', type: 'PartyList', maxLength: 500 }),
    ]);
    const mail = partsOf(root, 'Mail').control;
    expect([attr(mail, 'maxlength'), attr(mail, 'pattern')]).toEqual(['100', '.+@bank\\.com']);
    const phone = partsOf(root, 'Phone').control;
    expect([attr(phone, 'maxlength'), attr(phone, 'pattern')]).toEqual(['20', '\\+[0-9 ]+']);
    expect(attr(partsOf(root, 'Parties').control, 'maxlength')).toBe('500');
  });

  it('marks required fields (attribute and marker) and shows notes, described by', () => {
    const field = formField({ name: 'Name', required: true, note: 'As on the passport.' });
    const { control, label, note } = partsOf(parsedGroup([field]), 'Name');
    expect(hasAttr(control, 'required')).toBe(true);
    const marker = elements(label).find((element) => element.tagName === 'span')!;
    expect(classesOf(marker)).toEqual(['df-required']);
    expect(attr(marker, 'aria-hidden')).toBe('true');
    expect(textOf(marker)).toBe('*');
    expect(textOf(label)).toBe('Name label*');
    expect(note && textOf(note)).toBe('As on the passport.');
    expect(note && classesOf(note)).toEqual(['df-note']);
    expect(attr(control, 'aria-describedby')).toBe('df-Name-note df-Name-error');
  });
});

describe('column spans', () => {
  const wide = [
    formField({ name: 'Box', type: 'Checkbox' }),
    formField({ name: 'Parties', type: 'PartyList' }),
    formField({ name: 'Essay', maxLength: 2000 }),
  ];
  const narrow = FORM_FIELD_TYPES.filter((type) => type !== 'Checkbox' && type !== 'PartyList').map(
    (type) => formField({ name: `N${type}`, type, ...(type === 'Text' ? { maxLength: 255 } : {}) }),
  );
  const spanOf = (root: ReturnType<typeof parsedGroup>, name: string) =>
    classesOf(oneWithAttr(root, 'data-field', name)).find((name) => name.startsWith('df-span-'));

  it('without an override: 12 for textarea, PartyList and Checkbox, 6 for the others', () => {
    const root = parsedGroup([...wide, ...narrow]);
    for (const field of wide) expect(spanOf(root, field.name), field.name).toBe('df-span-12');
    for (const field of narrow) expect(spanOf(root, field.name), field.name).toBe('df-span-6');
  });

  it.each([1, 4, 12])('an override of %i applies to every field', (span) => {
    const root = parsedGroup([...wide, ...narrow], { colSpanOverride: span });
    for (const field of [...wide, ...narrow])
      expect(spanOf(root, field.name)).toBe(`df-span-${span}`);
  });

  it('the form passes its override to every group', () => {
    const fields = [formField({ name: 'A' }), formField({ name: 'B', uiGroup: 'Other' })];
    const { root } = parseHtml(renderForm(definition(fields, { colSpanOverride: 3 }), staff));
    expect(elements(root).filter((e) => classesOf(e).includes('df-span-3'))).toHaveLength(2);
  });
});

describe('permissions and read-only rendering', () => {
  const fields = [
    formField({ name: 'Open' }),
    formField({ name: 'AdminEdits', editPermissions: ['admin'] }),
    formField({ name: 'StaffSees', viewPermissions: ['staff'] }),
    formField({ name: 'TenantOnly', viewPermissions: ['tenant'], editPermissions: ['tenant'] }),
  ];
  const names = (html: string) =>
    elements(parseHtml(html).root)
      .map((element) => attr(element, 'data-field'))
      .filter(Boolean);
  const disabled = (html: string) =>
    elements(parseHtml(html).root)
      .filter((element) => hasAttr(element, 'disabled'))
      .map((element) => attr(element, 'name'));

  it('leaves out the fields the caller may not view', () => {
    expect(
      names(
        renderGroup(
          'G',
          fields.filter(() => true),
          staff,
        ),
      ),
    ).toHaveLength(4);
    const form = definition(fields);
    expect(names(renderForm(form, { ...staff, roles: ['staff'] }))).toEqual([
      'Open',
      'AdminEdits',
      'StaffSees',
    ]);
    expect(names(renderForm(form, { ...staff, roles: ['tenant'] }))).toEqual([
      'Open',
      'AdminEdits',
      'TenantOnly',
    ]);
    expect(names(renderForm(form, { ...staff, roles: ['admin', 'staff'] }))).toEqual([
      'Open',
      'AdminEdits',
      'StaffSees',
    ]);
  });

  it('renders the fields the caller may not edit disabled', () => {
    const form = definition(fields);
    expect(disabled(renderForm(form, staff))).toEqual(['DataObject.AdminEdits']);
    expect(disabled(renderForm(form, { ...staff, roles: ['admin', 'staff'] }))).toEqual([]);
    expect(disabled(renderForm(form, { ...staff, roles: ['tenant'] }))).toEqual([
      'DataObject.AdminEdits',
    ]);
  });

  it('hasEditPermission=false renders every control disabled', () => {
    const all = FORM_FIELD_TYPES.map((type) =>
      formField({ name: `R${type}`, type, ...(type === 'Select' ? { options: ['x'] } : {}) }),
    );
    const html = renderGroup('G', all, { ...staff, hasEditPermission: false });
    expect(disabled(html)).toEqual(all.map((field) => `DataObject.${field.name}`));
  });

  it('adds the validation summary block only when asked', () => {
    const without = parseHtml(renderGroup('G', fields, staff)).root;
    expect(withAttr(without, 'class', 'df-validation-summary')).toEqual([]);
    const { root } = parseHtml(renderGroup('G', fields, { ...staff, showValidationSummary: true }));
    const summary = oneWithAttr(root, 'class', 'df-validation-summary');
    expect(hasAttr(summary, 'data-validation-summary')).toBe(true);
    expect(hasAttr(summary, 'hidden')).toBe(true);
    expect(attr(summary, 'role')).toBe('alert');
    // Before the grid, after the title.
    const fieldset = elements(root).find((element) => element.tagName === 'fieldset')!;
    const children = fieldset.childNodes.filter((node): node is HtmlElement => 'tagName' in node);
    expect(children.map((child) => classesOf(child)[0])).toEqual([
      'df-group-title',
      'df-validation-summary',
      'df-grid',
    ]);
  });
});

describe('forms and groups', () => {
  const fields = [
    formField({ name: 'B1', uiGroup: 'Beta' }),
    formField({ name: 'A1', uiGroup: 'Alpha' }),
    formField({ name: 'B2', uiGroup: 'Beta' }),
    formField({ name: 'C1', uiGroup: 'Gamma' }),
  ];

  it('renders the groups in effective order, the fields in the form order', () => {
    const form = definition(fields, { uiGroupOrder: ['Gamma', 'Alpha', 'Unused'] });
    const { root, errors } = parseHtml(renderForm(form, staff));
    expect(errors).toEqual([]);
    const wrapper = elements(root)[0]!;
    expect([wrapper.tagName, classesOf(wrapper), attr(wrapper, 'data-form')]).toEqual([
      'div',
      ['df-form'],
      'KycForm',
    ]);
    const groups = elements(root).filter((element) => element.tagName === 'fieldset');
    expect(groups.map((group) => attr(group, 'data-group'))).toEqual(['Gamma', 'Alpha', 'Beta']);
    expect(groups.map((group) => textOf(elements(group)[1]!))).toEqual(['Gamma', 'Alpha', 'Beta']);
    const beta = groups[2]!;
    expect(
      elements(beta)
        .map((element) => attr(element, 'data-field'))
        .filter(Boolean),
    ).toEqual(['B1', 'B2']);
  });

  it('marks each field id that names no field, once, before the groups', () => {
    const form = definition(fields, { fields: [fields[0]!.id, 9001, fields[1]!.id, 9002, 9001] });
    const { root } = parseHtml(renderForm(form, staff));
    const markers = elements(root).filter((element) =>
      classesOf(element).includes('df-unresolved'),
    );
    expect(markers.map((marker) => attr(marker, 'data-unresolved-field'))).toEqual([
      '9001',
      '9002',
    ]);
    expect(markers.map((marker) => attr(marker, 'role'))).toEqual(['alert', 'alert']);
    expect(textOf(markers[0]!)).toBe('unresolved field reference: 9001');
    const order = elements(root).map((element) => classesOf(element)[0]);
    expect(order.indexOf('df-unresolved')).toBeLessThan(order.indexOf('df-group'));
  });

  it('puts the markers at the top of the first group only, when asked (forms service)', () => {
    const form = definition(fields, { fields: [...fields.map((field) => field.id), 9001] });
    const first = renderFormGroup(form, 'Beta', staff, true)!;
    expect(first.startsWith('<div class="df-unresolved" data-unresolved-field="9001"')).toBe(true);
    expect(renderFormGroup(form, 'Alpha', staff, true)).not.toContain('df-unresolved');
    expect(renderFormGroup(form, 'Beta', staff, false)).not.toContain('df-unresolved');
  });

  it('answers undefined for a group the form does not have, or whose fields the caller may not see', () => {
    const hidden = [
      ...fields,
      formField({ name: 'H', uiGroup: 'Hidden', viewPermissions: ['admin'] }),
    ];
    expect(renderFormGroup(definition(hidden), 'Nope', staff, true)).toBeUndefined();
    expect(renderFormGroup(definition(hidden), 'Hidden', staff, true)).toBeUndefined();
    expect(
      renderFormGroup(definition(hidden), 'Hidden', { ...staff, roles: ['admin'] }, true),
    ).toContain('data-field="H"');
  });

  it('renders each field once, even when the form names it twice', () => {
    const form = definition(fields, {
      field_definitions: [fields[0]!, fields[0]!, fields[1]!],
      fields: [fields[0]!.id, fields[0]!.id, fields[1]!.id],
    });
    const { root } = parseHtml(renderForm(form, staff));
    expect(withAttr(root, 'data-field', 'B1')).toHaveLength(1);
  });

  it('renders an empty form as its wrapper only', () => {
    expect(renderForm(definition([]), staff)).toBe(
      '<div class="df-form" data-form="KycForm"></div>',
    );
  });

  it('orders a catalogue group like the fields list (order, then display name)', () => {
    const catalogue = [
      formField({ name: 'Z', displayName: 'zeta', order: null }),
      formField({ name: 'Y', displayName: 'Yota', order: 2 }),
      formField({ name: 'X', displayName: 'xi', order: 1 }),
      formField({ name: 'W', displayName: 'alpha', order: null }),
      formField({ name: 'O', uiGroup: 'Other' }),
    ];
    const html = renderCatalogueGroup(catalogue, 'General', staff)!;
    const order = elements(parseHtml(html).root)
      .map((element) => attr(element, 'data-field'))
      .filter(Boolean);
    expect(order).toEqual(['X', 'Y', 'W', 'Z']);
    expect(renderCatalogueGroup(catalogue, 'Missing', staff)).toBeUndefined();
  });
});

describe('escaping of every value from the database', () => {
  const HOSTILE = [
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    "'><svg onload=alert(1)>",
    '</textarea><script>alert(1)</script>',
    '</option></select><iframe srcdoc="<script>alert(1)</script>">',
    '&lt;b&gt; &amp; &#60;',
    '<!-- --><style>*{}</style>',
    'javascript:alert(1)',
  ];

  /** The only elements and attributes the rendering ever produces. */
  const TAGS = new Set([
    'div',
    'fieldset',
    'legend',
    'label',
    'span',
    'input',
    'textarea',
    'select',
    'option',
    'p',
  ]);
  const ATTRIBUTES = new Set([
    'class',
    'id',
    'name',
    'type',
    'for',
    'value',
    'required',
    'disabled',
    'hidden',
    'role',
    'maxlength',
    'pattern',
    'aria-describedby',
    'aria-hidden',
    'data-form',
    'data-group',
    'data-field',
    'data-type',
    'data-label',
    'data-choices',
    'data-party-list',
    'data-validation-summary',
    'data-unresolved-field',
  ]);

  function expectOnlyOurMarkup(html: string) {
    const { root, errors } = parseHtml(html);
    expect(errors).toEqual([]);
    for (const element of elements(root)) {
      expect(TAGS.has(element.tagName), element.tagName).toBe(true);
      for (const { name } of element.attrs) {
        expect(ATTRIBUTES.has(name), name).toBe(true);
        expect(name.startsWith('on')).toBe(false);
      }
    }
    return root;
  }

  it.each(HOSTILE)(
    '%s as label, note, option, group, pattern, storage name and form name',
    (text) => {
      const fields = [
        formField({
          name: text,
          displayName: text,
          note: text,
          pattern: text,
          maxLength: 100,
          required: true,
          uiGroup: text,
        }),
        formField({ name: 'Choice', type: 'Select', options: [text, 'plain'], uiGroup: text }),
        formField({ name: 'Long', displayName: text, note: text, maxLength: 5000, uiGroup: text }),
        formField({ name: 'Parties', type: 'PartyList', displayName: text, uiGroup: text }),
      ];
      const form = definition(fields, { name: text, uiGroupOrder: [text] });
      for (const html of [
        renderForm(form, staff),
        renderFormGroup(form, text, { ...staff, showValidationSummary: true }, true)!,
        renderCatalogueGroup(fields, text, staff)!,
      ]) {
        const root = expectOnlyOurMarkup(html);
        // Each value reads back exactly as stored, as text or attribute value.
        const cell = oneWithAttr(root, 'data-field', text);
        expect(attr(cell, 'data-label')).toBe(text);
        const control = oneWithAttr(cell, 'name', `DataObject.${text}`);
        expect(attr(control, 'id')).toBe(`df-${text}`);
        expect(attr(control, 'pattern')).toBe(text);
        const label = elements(cell).find((element) => element.tagName === 'label')!;
        expect(textOf(label)).toBe(`${text}*`);
        expect(textOf(oneWithAttr(cell, 'id', `df-${text}-note`))).toBe(text);
        const group = elements(root).find((element) => element.tagName === 'fieldset')!;
        expect(attr(group, 'data-group')).toBe(text);
        expect(textOf(elements(group)[1]!)).toBe(text);
        const options = elements(oneWithAttr(root, 'name', 'DataObject.Choice')).filter(
          (element) => element.tagName === 'option',
        );
        expect(options.map((option) => attr(option, 'value'))).toEqual(['', text, 'plain']);
        expect(options.map(textOf)).toEqual(['', text, 'plain']);
        const long = oneWithAttr(root, 'name', 'DataObject.Long');
        expect([long.tagName, textOf(long)]).toEqual(['textarea', '']);
      }
      expect(attr(elements(parseHtml(renderForm(form, staff)).root)[0]!, 'data-form')).toBe(text);
    },
  );

  it('contains no script, style attribute, event handler or URL whatever the field', () => {
    const all = FORM_FIELD_TYPES.map((type) =>
      formField({
        name: `X${type}`,
        type,
        note: 'n',
        required: true,
        maxLength: 10,
        pattern: 'x',
        ...(type === 'Select' ? { options: ['a'] } : {}),
      }),
    );
    const html = renderForm(definition(all, { fields: [...all.map((f) => f.id), 77] }), {
      ...staff,
      showValidationSummary: true,
    });
    expectOnlyOurMarkup(html);
    expect(html).not.toMatch(/<script|style=|javascript:|\son\w+=/i);
  });
});
