import {
  canEditField,
  canViewField,
  COL_SPAN_MAX,
  compareFormFieldsForList,
  dataObjectInputName,
  effectiveGroupOrder,
  missingFieldIds,
  TEXT_INPUT_MAX_LENGTH,
  YES_NO_OPTIONS,
  type FormDefinition,
  type FormField,
} from '@console/contracts';
import { escapeHtml } from '../../auth/html.ts';

/**
 * The HTML of a form and of one of its field groups (forms-design.md, "Rendered HTML";
 * docs/form-usage.md): one control per field type, named `DataObject.<storage name>`, with its
 * label, required marker, note, length and pattern attributes and column span. Every value from
 * the database is escaped, in text and in attributes; the HTML holds no script, no event handler
 * attribute, no style attribute and no URL, so it works under the app's Content-Security-Policy.
 * The classes (`df-*`) are styled by the web app.
 */

/** What changes the HTML with the caller and the call. */
export interface RenderOptions {
  /** The caller's roles: fields it may not view are left out, those it may not edit disabled. */
  roles: readonly string[];
  /** false renders every control disabled (a read-only profile). */
  hasEditPermission: boolean;
  /** true adds the block where the client lists a failed submission's messages. */
  showValidationSummary: boolean;
  /** The form's column span override: 1-12 for every field, 0 for the span of each type. */
  colSpanOverride: number;
}

export const DEFAULT_RENDER_OPTIONS: Omit<RenderOptions, 'roles'> = {
  hasEditPermission: true,
  showValidationSummary: false,
  colSpanOverride: 0,
};

/** The span of a field that no override sets: full width for the wide controls, half otherwise. */
export const WIDE_SPAN = 12;
export const NARROW_SPAN = 6;

/** Whether a Text field is a multi-line box (more than TEXT_INPUT_MAX_LENGTH characters). */
export const isTextArea = (field: Pick<FormField, 'type' | 'maxLength'>): boolean =>
  field.type === 'Text' && field.maxLength !== null && field.maxLength > TEXT_INPUT_MAX_LENGTH;

/** The column span of a field (1-12). */
export function columnSpan(
  field: Pick<FormField, 'type' | 'maxLength'>,
  colSpanOverride: number,
): number {
  if (colSpanOverride >= 1 && colSpanOverride <= COL_SPAN_MAX) return colSpanOverride;
  const wide = isTextArea(field) || field.type === 'PartyList' || field.type === 'Checkbox';
  return wide ? WIDE_SPAN : NARROW_SPAN;
}

/** An attribute with its escaped value (a leading space included). */
const attribute = (name: string, value: string | number) =>
  ` ${name}="${escapeHtml(String(value))}"`;

/** The options of a select: the empty one first. */
function options(values: readonly string[]): string {
  let html = '<option value=""></option>';
  for (const value of values) {
    const text = escapeHtml(value);
    html += `<option value="${text}">${text}</option>`;
  }
  return html;
}

/** The control of one field: its element by type, with the attributes every control shares. */
function control(field: FormField, common: string): string {
  const length = field.maxLength === null ? '' : attribute('maxlength', field.maxLength);
  const pattern = field.pattern === null ? '' : attribute('pattern', field.pattern);
  switch (field.type) {
    case 'Text':
      return isTextArea(field)
        ? `<textarea${common}${length}></textarea>`
        : `<input${common} type="text"${length}${pattern}>`;
    case 'Email':
      return `<input${common} type="email"${length}${pattern}>`;
    case 'PhoneNumber':
      return `<input${common} type="tel"${length}${pattern}>`;
    case 'Date':
      return `<input${common} type="date">`;
    case 'DateTime':
      return `<input${common} type="datetime-local">`;
    case 'Checkbox':
      return `<input${common} type="checkbox" value="true">`;
    case 'DropdownYesNo':
      return `<select${common}>${options(YES_NO_OPTIONS)}</select>`;
    case 'Select':
      return `<select${common}>${options(field.options)}</select>`;
    case 'Country':
      return `<select${common} data-choices="countries">${options([])}</select>`;
    case 'DocumentType':
      return `<select${common} data-choices="documentTypes">${options([])}</select>`;
    case 'FileUpload':
      return `<input${common} type="file">`;
    case 'PartyList':
      return `<textarea${common} data-party-list${length}></textarea>`;
  }
}

/** One field: its cell in the grid, label, control, note and (empty) error line. */
export function renderField(field: FormField, options: RenderOptions): string {
  const name = field.name;
  const id = `df-${name}`;
  const noteId = `${id}-note`;
  const errorId = `${id}-error`;
  const disabled = !options.hasEditPermission || !canEditField(field, options.roles);
  const describedBy = field.note ? `${noteId} ${errorId}` : errorId;
  const classes = field.type === 'Checkbox' ? 'df-input df-checkbox' : 'df-input';
  const common =
    ` class="${classes}"${attribute('id', id)}${attribute('name', dataObjectInputName(name))}` +
    `${field.required ? ' required' : ''}${disabled ? ' disabled' : ''}` +
    attribute('aria-describedby', describedBy);
  const label = escapeHtml(field.displayName);
  return (
    `<div class="df-field df-span-${columnSpan(field, options.colSpanOverride)}"` +
    `${attribute('data-field', name)}${attribute('data-type', field.type)}` +
    `${attribute('data-label', field.displayName)}>` +
    `<label class="df-label"${attribute('for', id)}>${label}` +
    `${field.required ? '<span class="df-required" aria-hidden="true">*</span>' : ''}</label>` +
    control(field, common) +
    (field.note
      ? `<p class="df-note"${attribute('id', noteId)}>${escapeHtml(field.note)}</p>`
      : '') +
    `<p class="df-error"${attribute('id', errorId)} hidden></p>` +
    '</div>'
  );
}

/** One group: its title, the validation summary when asked for, and its fields in the given order. */
export function renderGroup(
  group: string,
  fields: readonly FormField[],
  options: RenderOptions,
): string {
  let html =
    `<fieldset class="df-group"${attribute('data-group', group)}>` +
    `<legend class="df-group-title">${escapeHtml(group)}</legend>`;
  if (options.showValidationSummary) {
    html += '<div class="df-validation-summary" data-validation-summary role="alert" hidden></div>';
  }
  html += '<div class="df-grid">';
  for (const field of fields) html += renderField(field, options);
  return `${html}</div></fieldset>`;
}

/** The warning for a field id of the form that names no field (the test dialog looks for it). */
export function renderUnresolved(id: number): string {
  return (
    `<div class="df-unresolved"${attribute('data-unresolved-field', id)} role="alert">` +
    `unresolved field reference: ${id}</div>`
  );
}

/** A form's fields as the caller sees them: each once, in the form's order, viewable ones only. */
export function visibleFields(
  definition: Pick<FormDefinition, 'field_definitions'>,
  roles: readonly string[],
): FormField[] {
  const seen = new Set<number>();
  return definition.field_definitions.filter((field) => {
    if (seen.has(field.id) || !canViewField(field, roles)) return false;
    seen.add(field.id);
    return true;
  });
}

/** The groups of a form the caller sees, in order (`effectiveGroupOrder` of its visible fields). */
export function formGroups(
  definition: Pick<FormDefinition, 'uiGroupOrder' | 'field_definitions'>,
  roles: readonly string[],
): string[] {
  return effectiveGroupOrder(definition.uiGroupOrder, visibleFields(definition, roles));
}

type RenderedDefinition = Pick<
  FormDefinition,
  'name' | 'fields' | 'uiGroupOrder' | 'colSpanOverride' | 'field_definitions'
>;

/** The unresolved markers of a form, one per field id that names no field, in its order. */
function unresolvedMarkers(definition: RenderedDefinition): string {
  return [...new Set(missingFieldIds(definition))].map(renderUnresolved).join('');
}

/** The whole form: its unresolved markers, then its groups in order. */
export function renderForm(
  definition: RenderedDefinition,
  options: Omit<RenderOptions, 'colSpanOverride'>,
): string {
  const fields = visibleFields(definition, options.roles);
  const withSpan = { ...options, colSpanOverride: definition.colSpanOverride };
  let html = `<div class="df-form"${attribute('data-form', definition.name)}>`;
  html += unresolvedMarkers(definition);
  for (const group of effectiveGroupOrder(definition.uiGroupOrder, fields)) {
    const members = fields.filter((field) => field.uiGroup === group);
    html += renderGroup(group, members, withSpan);
  }
  return `${html}</div>`;
}

/**
 * One group of a form, or undefined when the caller sees no field of that group. With
 * `markUnresolved`, the first group starts with the form's unresolved markers (the forms service's
 * group call; the test dialog loads every group and so sees them once).
 */
export function renderFormGroup(
  definition: RenderedDefinition,
  group: string,
  options: Omit<RenderOptions, 'colSpanOverride'>,
  markUnresolved: boolean,
): string | undefined {
  const fields = visibleFields(definition, options.roles);
  const groups = effectiveGroupOrder(definition.uiGroupOrder, fields);
  if (!groups.includes(group)) return undefined;
  const members = fields.filter((field) => field.uiGroup === group);
  const html = renderGroup(group, members, {
    ...options,
    colSpanOverride: definition.colSpanOverride,
  });
  return markUnresolved && groups[0] === group ? unresolvedMarkers(definition) + html : html;
}

/**
 * A group of the whole catalogue (GET /svc/formusage/{group}/fieldgroup without a form): the
 * fields of that group the caller sees, in the fields list's order; undefined when there are none.
 */
export function renderCatalogueGroup(
  catalogue: readonly FormField[],
  group: string,
  options: Omit<RenderOptions, 'colSpanOverride'>,
): string | undefined {
  const members = catalogue
    .filter((field) => field.uiGroup === group && canViewField(field, options.roles))
    .sort(compareFormFieldsForList);
  if (members.length === 0) return undefined;
  return renderGroup(group, members, { ...options, colSpanOverride: 0 });
}
