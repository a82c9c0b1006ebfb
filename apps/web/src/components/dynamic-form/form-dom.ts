/**
 * What the dynamic-form host does to the injected HTML of a form's field groups (forms design,
 * "Rendered HTML", "Setup event", "Submission semantics"): pre-fill values by input name, fill
 * the country and document type choices, mark the fields the server refused, and gather the
 * values to submit. The HTML is the server's: these functions rely on its `df-*` classes and
 * `data-*` attributes only.
 */
import { dataObjectKey, ownValue } from '@console/contracts';

/** One choice of a Country or DocumentType select: option value = id, text = displayName. */
export interface FormChoice {
  id: string;
  displayName: string;
}

/** The detail of the `form-setup` event: the choices of `select[data-choices="<key>"]`. */
export interface FormSetupDetail {
  countries: readonly FormChoice[];
  documentTypes: readonly FormChoice[];
}

/** Values by input name (`DataObject.<storage name>`). */
export type InputValues = Readonly<Record<string, string>>;

/** Refusals by field label (the server's 400 `errors`), each a list of messages. */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

/** The values of a form to submit: `{DataObject}` by storage name, and the chosen files. */
export interface CollectedForm {
  DataObject: Record<string, string>;
  /** The chosen file of each file input, by input name. */
  files: Record<string, File>;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const CONTROLS = 'input[name], select[name], textarea[name]';

function controlsOf(root: ParentNode): Control[] {
  return Array.from(root.querySelectorAll<Control>(CONTROLS));
}

const isInput = (control: Control, type: string): control is HTMLInputElement =>
  control instanceof HTMLInputElement && control.type === type;

/**
 * A select's value waiting for its option: a Country or DocumentType select has no options
 * until the setup event fills it, so its pre-filled value is kept here until then.
 */
const PENDING_VALUE = 'dfPendingValue';

/** Puts each value into the control of that name (a file input cannot be given one). */
export function prefill(root: ParentNode, values: InputValues): void {
  for (const control of controlsOf(root)) {
    const value = values[control.name];
    if (value === undefined) continue;
    if (isInput(control, 'checkbox')) {
      control.checked = value === 'true';
    } else if (isInput(control, 'radio')) {
      control.checked = control.value === value;
    } else if (isInput(control, 'file')) {
      continue;
    } else {
      control.value = value;
      if (
        control instanceof HTMLSelectElement &&
        control.dataset.choices !== undefined &&
        control.value !== value
      ) {
        control.dataset[PENDING_VALUE] = value;
      }
    }
  }
}

/**
 * Fills every `select[data-choices]` with the choices the setup event carries, after its empty
 * option, keeping the value it holds (or the pre-filled one waiting for its option). A value
 * that is not among the choices (a country since removed, or choices this user cannot read)
 * stays as an option of its own, so that saving does not silently drop it.
 */
export function fillChoices(root: ParentNode, detail: FormSetupDetail): void {
  for (const select of root.querySelectorAll<HTMLSelectElement>('select[data-choices]')) {
    const choices = detail[select.dataset.choices as keyof FormSetupDetail] as
      readonly FormChoice[] | undefined;
    if (!choices) continue;
    const wanted = select.dataset[PENDING_VALUE] ?? select.value;
    const options = choices.map((choice) => new Option(choice.displayName, choice.id));
    if (wanted !== '' && !choices.some((choice) => choice.id === wanted)) {
      options.push(new Option(wanted, wanted));
    }
    const empty = Array.from(select.options).find((option) => option.value === '');
    select.replaceChildren(...(empty ? [empty] : []), ...options);
    select.value = wanted;
    delete select.dataset[PENDING_VALUE];
  }
}

/**
 * The messages of a field: by its label, else by its storage name (a key the form lacks). Own
 * keys only: a label is a display name, any text, `constructor` too.
 */
function messagesOf(field: HTMLElement, errors: FieldErrors | null): readonly string[] {
  if (!errors) return [];
  const { label, field: storageName } = field.dataset;
  return (
    (label !== undefined ? ownValue(errors, label) : undefined) ??
    (storageName !== undefined ? ownValue(errors, storageName) : undefined) ??
    []
  );
}

/**
 * Shows the server's refusals (`errors` keyed by label): a field whose `data-label` matches gets
 * `aria-invalid` on its controls, the destructive style (`df-invalid`) and its messages, joined
 * by commas, in its `.df-error` element; each group's validation summary, when the HTML has one,
 * lists its fields' messages. Null clears them all.
 */
export function showFieldErrors(root: ParentNode, errors: FieldErrors | null): void {
  for (const field of root.querySelectorAll<HTMLElement>('[data-field]')) {
    const messages = messagesOf(field, errors);
    const invalid = messages.length > 0;
    field.classList.toggle('df-invalid', invalid);
    for (const control of controlsOf(field)) {
      if (invalid) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
    }
    const message = field.querySelector<HTMLElement>('.df-error');
    if (message) {
      message.textContent = messages.join(', ');
      message.hidden = !invalid;
    }
  }
  for (const summary of root.querySelectorAll<HTMLElement>('[data-validation-summary]')) {
    const group = summary.closest('[data-group]') ?? root;
    const items = Array.from(group.querySelectorAll<HTMLElement>('[data-field]')).flatMap(
      (field) => {
        const messages = messagesOf(field, errors);
        if (messages.length === 0) return [];
        const item = document.createElement('li');
        item.textContent = `${field.dataset.label ?? field.dataset.field}: ${messages.join(', ')}`;
        return [item];
      },
    );
    const list = document.createElement('ul');
    list.append(...items);
    summary.replaceChildren(...(items.length > 0 ? [list] : []));
    summary.hidden = items.length === 0;
  }
}

/** The first control the server refused, to take the focus. */
export function firstInvalidControl(root: ParentNode): HTMLElement | null {
  return root.querySelector<HTMLElement>('[aria-invalid="true"]');
}

/**
 * The values to submit: every enabled control whose name starts with `DataObject.`, by storage
 * name (`dataObjectKey`). A checkbox gives "true" or "false"; a file input its chosen file
 * (returned apart, for a multipart submission) under the file's name, or else `current[name]`,
 * the file the record already holds; a radio group its checked value.
 */
export function collectForm(root: ParentNode, current: InputValues = {}): CollectedForm {
  // Keyed by the HTML's input names: no prototype for a name to reach (the server refuses such a
  // storage name, keys.ts, but the HTML of an older row may still carry one).
  const collected: CollectedForm = {
    DataObject: Object.create(null) as Record<string, string>,
    files: Object.create(null) as Record<string, File>,
  };
  for (const control of controlsOf(root)) {
    const key = dataObjectKey(control.name);
    if (key === null || control.matches(':disabled')) continue;
    if (isInput(control, 'checkbox')) {
      collected.DataObject[key] = control.checked ? 'true' : 'false';
    } else if (isInput(control, 'radio')) {
      if (control.checked || !Object.hasOwn(collected.DataObject, key)) {
        collected.DataObject[key] = control.checked ? control.value : '';
      }
    } else if (isInput(control, 'file')) {
      const file = control.files?.[0];
      if (file) collected.files[control.name] = file;
      collected.DataObject[key] = file ? file.name : (ownValue(current, control.name) ?? '');
    } else {
      collected.DataObject[key] = control.value;
    }
  }
  return collected;
}

/** The field ids the HTML marks as naming no field (`[data-unresolved-field]`). */
export function unresolvedFieldIds(root: ParentNode): string[] {
  return Array.from(root.querySelectorAll<HTMLElement>('[data-unresolved-field]')).map(
    (marker) => marker.dataset.unresolvedField ?? '',
  );
}

/** A FileUpload field of the HTML, where the host shows the file the record holds. */
export interface FileField {
  storageName: string;
  inputName: string;
  /** The element after the input that holds what the host renders for it. */
  slot: HTMLElement;
}

/** Each FileUpload field's slot for its current file, made once after its input. */
export function fileFields(root: ParentNode): FileField[] {
  return Array.from(
    root.querySelectorAll<HTMLElement>('[data-field][data-type="FileUpload"]'),
  ).flatMap((field) => {
    const input = field.querySelector<HTMLInputElement>('input[type="file"][name]');
    if (!input || !field.dataset.field) return [];
    let slot = field.querySelector<HTMLElement>(':scope > .df-file-current');
    if (!slot) {
      slot = document.createElement('div');
      slot.className = 'df-file-current';
      input.after(slot);
    }
    return [{ storageName: field.dataset.field, inputName: input.name, slot }];
  });
}
