/**
 * For the screen tests of the dynamic forms: field group HTML as the server renders it (forms
 * design, "Rendered HTML": a fieldset per group, a grid cell per field with its label, control,
 * note and error line), and the countries and document types of the setup event.
 */
import type { FormFieldType } from '@console/contracts';
import { country, documentType } from './reference-data';

/** GET api/countries and GET api/documenttypes as staff read them, for the setup event. */
export const REFERENCE_ROUTES = {
  'GET /api/countries': [country(840, 'United States of America'), country(826, 'United Kingdom')],
  'GET /api/documenttypes': [
    documentType('passport', 'Passport'),
    documentType('id_card', 'ID card'),
  ],
};

/** The same lists as a tenant user reads them: the choices only (id and the name shown). */
export const CHOICE_ROUTES = {
  'GET /api/countries': [
    { id: 840, countryName: 'United States of America' },
    { id: 826, countryName: 'United Kingdom' },
  ],
  'GET /api/documenttypes': [
    { id: 'passport', displayName: 'Passport' },
    { id: 'id_card', displayName: 'ID card' },
  ],
};

export interface TestField {
  /** The storage name: the input is `DataObject.<name>`. */
  name: string;
  label: string;
  type?: FormFieldType;
  required?: boolean;
  disabled?: boolean;
  note?: string;
  /** Select options (the empty one comes first). */
  options?: string[];
  span?: number;
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function options(values: readonly string[]): string {
  return ['', ...values]
    .map((value) => `<option value="${escape(value)}">${escape(value)}</option>`)
    .join('');
}

function control(field: TestField, common: string): string {
  switch (field.type ?? 'Text') {
    case 'Email':
      return `<input${common} type="email">`;
    case 'PhoneNumber':
      return `<input${common} type="tel">`;
    case 'Date':
      return `<input${common} type="date">`;
    case 'DateTime':
      return `<input${common} type="datetime-local">`;
    case 'Checkbox':
      return `<input${common} type="checkbox" value="true">`;
    case 'DropdownYesNo':
      return `<select${common}>${options(['Yes', 'No'])}</select>`;
    case 'Select':
      return `<select${common}>${options(field.options ?? [])}</select>`;
    case 'Country':
      return `<select${common} data-choices="countries">${options([])}</select>`;
    case 'DocumentType':
      return `<select${common} data-choices="documentTypes">${options([])}</select>`;
    case 'FileUpload':
      return `<input${common} type="file">`;
    case 'PartyList':
      return `<textarea${common} data-party-list></textarea>`;
    default:
      return `<input${common} type="text">`;
  }
}

export function fieldHtml(field: TestField): string {
  const id = `df-${field.name}`;
  const describedBy = field.note ? `${id}-note ${id}-error` : `${id}-error`;
  const common =
    ` class="df-input" id="${id}" name="DataObject.${escape(field.name)}"` +
    `${field.required ? ' required' : ''}${field.disabled ? ' disabled' : ''}` +
    ` aria-describedby="${describedBy}"`;
  return (
    `<div class="df-field df-span-${field.span ?? 6}" data-field="${escape(field.name)}"` +
    ` data-type="${field.type ?? 'Text'}" data-label="${escape(field.label)}">` +
    `<label class="df-label" for="${id}">${escape(field.label)}` +
    `${field.required ? '<span class="df-required" aria-hidden="true">*</span>' : ''}</label>` +
    control(field, common) +
    (field.note ? `<p class="df-note" id="${id}-note">${escape(field.note)}</p>` : '') +
    `<p class="df-error" id="${id}-error" hidden></p></div>`
  );
}

/** One group's HTML; `summary` adds the validation summary block, `before` goes in front. */
export function groupHtml(
  group: string,
  fields: readonly TestField[],
  { summary = false, before = '' }: { summary?: boolean; before?: string } = {},
): string {
  return (
    before +
    `<fieldset class="df-group" data-group="${escape(group)}">` +
    `<legend class="df-group-title">${escape(group)}</legend>` +
    (summary
      ? '<div class="df-validation-summary" data-validation-summary role="alert" hidden></div>'
      : '') +
    `<div class="df-grid">${fields.map(fieldHtml).join('')}</div></fieldset>`
  );
}

/** The marker of a form field id that names no field. */
export const unresolvedHtml = (id: number) =>
  `<div class="df-unresolved" data-unresolved-field="${id}" role="alert">unresolved field reference: ${id}</div>`;

/** An answer of HTML, as the group calls get it. */
export function htmlResponse(html: string, status = 200): Response {
  return new Response(html, { status, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}
