import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import Handlebars from 'handlebars';
import { convert } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';
import { badRequest } from '../../http/errors.ts';

/**
 * Rendering of template versions: Handlebars for the placeholders (it escapes HTML by default and
 * refuses prototype access since 4.6), Ajv for the version's JSON Schema, html-to-text for the text
 * part a version does not give, sanitize-html for the preview.
 */

/** What a version renders from. */
export interface RenderableVersion {
  subject: string;
  body: string;
  textContent: string;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

// One environment of our own, so no helper registered elsewhere leaks in.
const handlebars = Handlebars.create();
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });

/** Plain text of an HTML body (template or rendered): links keep their address, no wrapping. */
export function textFromHtml(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
      // A heading keeps its case: upper-casing would also change {{placeholders}} in it.
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
        selector,
        options: { uppercase: false },
      })),
    ],
  }).trim();
}

type Compiled = (data: unknown) => string;

/**
 * Compiles one part. HTML escapes placeholder values; subject and text are not HTML, so they do
 * not (an '&' in a company name stays '&'). A compile error is a 400 naming the field.
 */
function compilePart(source: string, field: string, html: boolean): Compiled {
  try {
    const template = handlebars.compile(source, { noEscape: !html, strict: false });
    // Compilation is lazy: the first call parses. Parse now so errors surface here.
    handlebars.precompile(source);
    return (data) => template(data);
  } catch (error) {
    throw badRequest(`${field} is not a valid template: ${firstLine(error)}`, {
      errors: [{ path: field, message: `Not a valid template: ${firstLine(error)}` }],
    });
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n').slice(0, 2).join(' ').slice(0, 300);
}

/** A version compiled once, rendered many times (the worker and the benchmark keep it). */
export interface CompiledVersion {
  render(data: unknown): RenderedMail;
}

export function compileVersion(version: RenderableVersion): CompiledVersion {
  const subject = compilePart(version.subject, 'subject', false);
  const html = compilePart(version.body, 'body', true);
  const text = compilePart(version.textContent, 'textContent', false);
  return {
    render(data) {
      try {
        return {
          // A subject is one header line: a placeholder value must not add another.
          subject: subject(data)
            .replace(/[\r\n]+/g, ' ')
            .trim(),
          html: html(data),
          text: text(data),
        };
      } catch (error) {
        throw badRequest(`The template could not be rendered: ${firstLine(error)}`);
      }
    },
  };
}

/**
 * A small cache of compiled things by their source text: compiling a JSON Schema (Ajv generates
 * code) or a template costs far more than rendering, and the same few versions render again and
 * again (test sends, invitations). Emptied when full, which a handful of live versions never is.
 */
class CompileCache<T> {
  private readonly entries = new Map<string, T>();
  constructor(private readonly max = 200) {}
  get(key: string, make: () => T): T {
    let value = this.entries.get(key);
    if (value === undefined) {
      value = make();
      if (this.entries.size >= this.max) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}

const schemaCache = new CompileCache<{ validate: ValidateFunction; sample: unknown }>();
const versionCache = new CompileCache<CompiledVersion>();

/**
 * compileVersion of a saved version, remembered by its id: a version never changes once created,
 * so its id names its content (and costs nothing to compare, unlike a 100 kB body).
 */
export function cachedCompileVersion(
  versionId: number,
  version: RenderableVersion,
): CompiledVersion {
  return versionCache.get(String(versionId), () => compileVersion(version));
}

/** The validator of a JSON Schema and sample data made from it, remembered by the schema text. */
export function compiledSchema(
  jsonSchema: string | null,
): { validate: ValidateFunction; sample: unknown } | null {
  if (jsonSchema === null) return null;
  return schemaCache.get(jsonSchema, () => {
    const validate = compileJsonSchema(jsonSchema);
    if (!validate) throw new Error('unreachable: a schema text compiles to a validator');
    return { validate, sample: sampleFromSchema(JSON.parse(jsonSchema)) };
  });
}

/** Parses and compiles a version's JSON Schema; a 400 naming jsonSchema when it is not one. */
export function compileJsonSchema(jsonSchema: string | null): ValidateFunction | null {
  if (jsonSchema === null) return null;
  let schema: unknown;
  try {
    schema = JSON.parse(jsonSchema);
  } catch (error) {
    throw schemaError(`jsonSchema is not valid JSON: ${firstLine(error)}`);
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw schemaError('jsonSchema must be a JSON object (a JSON Schema)');
  }
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw schemaError(`jsonSchema is not a valid JSON Schema: ${firstLine(error)}`);
  }
}

function schemaError(message: string) {
  return badRequest(message, { errors: [{ path: 'jsonSchema', message }] });
}

export function describeSchemaErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 5)
    .map((error) => `${error.instancePath || '(data)'} ${error.message ?? ''}`.trim())
    .join('; ');
}

/** Examples by string format, for sample data. */
const FORMAT_SAMPLES: Record<string, string> = {
  email: 'jane.doe@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'date-time': '2026-01-31T09:30:00Z',
  date: '2026-01-31',
  time: '09:30:00',
  uuid: '3f2b8c1e-4d5a-4e6f-9a7b-8c9d0e1f2a3b',
};

const MAX_SAMPLE_DEPTH = 8;

/**
 * Sample data for a JSON Schema: an example, default, const or first enum value where the schema
 * gives one, else a value of its type (objects with every property, arrays with two items so
 * loops show). Covers what template schemas use; $ref and combinators take their first branch.
 */
export function sampleFromSchema(schema: unknown, name = 'value', depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > MAX_SAMPLE_DEPTH) return null;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0) {
      return sampleFromSchema(branches[0], name, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? 'null') : s.type;
  switch (type) {
    case 'object':
      return sampleObject(s, depth);
    case 'array': {
      const count = Math.max(2, typeof s.minItems === 'number' ? Math.min(s.minItems, 10) : 2);
      return Array.from({ length: count }, (_, index) =>
        sampleFromSchema(s.items ?? {}, `${name} ${index + 1}`, depth + 1),
      );
    }
    case 'string':
      return sampleString(s, name);
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : type === 'integer' ? 42 : 42.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return s.properties ? sampleObject(s, depth) : `Sample ${name}`;
  }
}

/**
 * An object with a sample of every property. The names are the schema's, which a client wrote:
 * a property named `__proto__` or `constructor` is plain data (an own key), never the prototype.
 */
function sampleObject(s: Record<string, unknown>, depth: number): Record<string, unknown> {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [
      key,
      sampleFromSchema(property, key, depth + 1),
    ]),
  );
}

function sampleString(s: Record<string, unknown>, name: string): string {
  const format = typeof s.format === 'string' ? FORMAT_SAMPLES[s.format] : undefined;
  let value = format ?? `Sample ${name}`;
  if (typeof s.maxLength === 'number') value = value.slice(0, s.maxLength);
  if (typeof s.minLength === 'number') value = value.padEnd(s.minLength, 'x');
  return value;
}

/**
 * The HTML of a preview: the email's own markup (tables, inline styles, <style>) without
 * anything that runs or loads: no script, no event handler, no form, no iframe or object, images
 * only from data: or cid: URLs, no url() in styles. The preview frame adds its own CSP on top.
 */
export function sanitizeForPreview(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'style', 'center', 'font'],
    allowVulnerableTags: true, // <style>: its text is kept, url() loads removed below.
    allowedAttributes: {
      '*': [
        'style',
        'class',
        'id',
        'align',
        'valign',
        'width',
        'height',
        'bgcolor',
        'border',
        'cellpadding',
        'cellspacing',
        'role',
        'dir',
        'lang',
        'title',
        'colspan',
        'rowspan',
        'color',
        'face',
        'size',
      ],
      a: ['href', 'name', 'target'],
      img: ['src', 'alt'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['data', 'cid'] },
    allowProtocolRelative: false,
    transformTags: {
      '*': (tagName, attribs) => {
        const style = attribs.style;
        if (style && REMOTE_STYLE.test(style)) {
          const { style: _removed, ...rest } = attribs;
          return { tagName, attribs: rest };
        }
        return { tagName, attribs };
      },
    },
    textFilter: (text, tagName) =>
      tagName === 'style' ? text.replace(REMOTE_STYLE_GLOBAL, '') : text,
  });
}

const REMOTE_STYLE = /url\s*\(|@import|expression\s*\(/i;
const REMOTE_STYLE_GLOBAL = /url\s*\([^)]*\)|@import[^;]*;?|expression\s*\([^)]*\)/gi;
