/**
 * The server renders the HTML of a form's field groups and escapes every value in it (forms
 * design, "Rendered HTML"); the browser sanitises it again before injecting it, so that a fault
 * of the server or of a proxy between cannot run anything in the console. What survives is the
 * form: its structure, its controls and the attributes they work with. Nothing executable does:
 * no script, no event handler, no style, no URL, no button, no nested form.
 */
import createDOMPurify from 'dompurify';

const TAGS = [
  // The layout of groups and fields.
  'div',
  'p',
  'span',
  'fieldset',
  'legend',
  'label',
  'br',
  'strong',
  'em',
  'b',
  'i',
  'small',
  'ul',
  'ol',
  'li',
  // The controls.
  'input',
  'select',
  'option',
  'optgroup',
  'textarea',
];

/** Besides these, `data-*` and `aria-*` attributes stay (DOMPurify's defaults). */
const ATTRIBUTES = [
  'class',
  'id',
  'for',
  'role',
  'title',
  'name',
  'type',
  'value',
  'required',
  'maxlength',
  'minlength',
  'pattern',
  'min',
  'max',
  'step',
  'disabled',
  'readonly',
  'hidden',
  'checked',
  'selected',
  'multiple',
  'placeholder',
  'autocomplete',
  'inputmode',
  'accept',
  'rows',
  'cols',
  'label',
];

/** Input types a field can have; any other (submit, image, reset, button, ...) falls back to text. */
const INPUT_TYPES = new Set([
  'text',
  'email',
  'tel',
  'date',
  'datetime-local',
  'time',
  'number',
  'url',
  'checkbox',
  'radio',
  'file',
]);

// An instance of its own: its hook applies to the form's HTML only.
const purifier = createDOMPurify(window);
purifier.addHook('uponSanitizeAttribute', (node, event) => {
  if (
    event.attrName === 'type' &&
    node.nodeName === 'INPUT' &&
    !INPUT_TYPES.has(event.attrValue.toLowerCase())
  ) {
    event.keepAttr = false;
  }
});

/** The group's HTML as nodes that keep the form and nothing executable, ready to insert. */
export function sanitizeFormHtml(html: string): DocumentFragment {
  return purifier.sanitize(html, {
    ALLOWED_TAGS: TAGS,
    ALLOWED_ATTR: ATTRIBUTES,
    FORBID_ATTR: ['style'],
    RETURN_DOM_FRAGMENT: true,
  });
}
