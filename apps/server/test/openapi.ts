import type { LightMyRequestResponse } from 'fastify';
import type { ConsoleApp } from '../src/http/console-app.ts';
import type { TextPart } from './multipart.ts';

/** The parts of the served OpenAPI document the hostile-input tests walk. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  maxLength?: number;
  minimum?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  examples?: unknown[];
  nullable?: boolean;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** The path as the document writes it: /api/tenants/{id}. */
  path: string;
  parameters: Parameter[];
  /** The JSON body's schema, when the route declares one. */
  body?: JsonSchema;
  /** The schema of the text parts of a multipart/form-data body, when the route reads one. */
  multipart?: JsonSchema;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the OpenAPI document the server serves at /docs/api/json. */
export async function loadOperations(app: ConsoleApp): Promise<Operation[]> {
  const response = await app.inject({ method: 'GET', url: '/docs/api/json' });
  if (response.statusCode !== 200) throw new Error(`/docs/api/json: ${response.statusCode}`);
  const document = response.json() as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const content = (
        operation.requestBody as { content?: Record<string, { schema: JsonSchema }> }
      )?.content;
      const body = content?.['application/json']?.schema;
      const multipart = content?.['multipart/form-data']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters as Parameter[] | undefined) ?? [],
        ...(body ? { body } : {}),
        ...(multipart ? { multipart } : {}),
      });
    }
  }
  return operations;
}

/** The URL of an operation with its path parameters replaced (each URL-encoded). */
export function urlOf(operation: Operation, values: Record<string, string>): string {
  return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for {${name}} of ${operation.path}`);
    return encodeURIComponent(value);
  });
}

export const isWrite = (operation: Operation) => operation.method !== 'GET';

// --- Bodies for the hostile-input tests: samples of a schema and the fields to make wrong.

/** A path in a body: property names, 0 for an array's item, KEY for a record's key. */
export type Step = string | number | typeof KEY;
export const KEY = Symbol('record key');
/** The key a sample record holds (a record's key is a field of its own). */
export const SAMPLE_KEY = 'sample';

/** A value of the schema's shape (not necessarily one the route accepts). */
export function sample(schema: JsonSchema): unknown {
  const options = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (options?.[0]) return sample(options[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        value[name] = sample(property);
      }
      if (typeof schema.additionalProperties === 'object') {
        value[SAMPLE_KEY] = sample(schema.additionalProperties);
      }
      return value;
    }
    case 'array':
      return schema.items ? [sample(schema.items)] : [];
    case 'string':
      if (schema.format === 'date-time') return '2024-01-01T00:00:00Z';
      if (schema.format === 'date') return '2024-01-01';
      return 'sample';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

export interface Field {
  path: Step[];
  schema: JsonSchema;
}

/** Every string field of a body schema (record keys included), and every object or array. */
export function fieldsOf(
  schema: JsonSchema,
  path: Step[] = [],
): { strings: Field[]; nested: Field[] } {
  const strings: Field[] = [];
  const nested: Field[] = [];
  const visit = (current: JsonSchema, at: Step[]) => {
    const options = current.anyOf ?? current.oneOf ?? current.allOf;
    if (options?.[0]) {
      // One representative per kind: the first string option and the first structured one.
      const text = options.find((option) => option.type === 'string');
      const other = options.find((option) => option.type !== 'string');
      if (text) visit(text, at);
      if (other) visit(other, at);
      return;
    }
    if (current.type === 'string') strings.push({ path: at, schema: current });
    if (current.type === 'object') {
      nested.push({ path: at, schema: current });
      for (const [name, property] of Object.entries(current.properties ?? {})) {
        visit(property, [...at, name]);
      }
      if (typeof current.additionalProperties === 'object') {
        strings.push({ path: [...at, KEY], schema: {} });
        visit(current.additionalProperties, [...at, SAMPLE_KEY]);
      }
    }
    if (current.type === 'array' && current.items) {
      nested.push({ path: at, schema: current });
      visit(current.items, [...at, 0]);
    }
  };
  visit(schema, path);
  return { strings, nested };
}

/** `body` with the value at `path` replaced (a KEY step renames the record's sample key). */
export function withValue(body: unknown, path: Step[], value: unknown): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return value;
  if (step === KEY) {
    const record = { ...(body as Record<string, unknown>) };
    const inner = record[SAMPLE_KEY];
    delete record[SAMPLE_KEY];
    return { ...record, [value as string]: inner };
  }
  const copy = (Array.isArray(body) ? [...body] : { ...(body as object) }) as Record<
    string | number,
    unknown
  >;
  copy[step] = withValue(copy[step], rest, value);
  return copy;
}

/** The dotted path an answer names (a record key is named by its record). */
export const dotted = (path: Step[]) => {
  const end = path.indexOf(KEY);
  return (end === -1 ? path : path.slice(0, end)).map(String).join('.');
};

/** Whether a 4xx answer names the field: in `errors` (by path) or in its message. */
export function namesField(response: LightMyRequestResponse, field: string, name: string): boolean {
  const body = response.json() as { message: string; errors?: { path: string }[] };
  const paths = body.errors?.map((error) => error.path) ?? [];
  return (
    paths.some((path) => path === field || path.startsWith(`${field}.`)) ||
    body.message.toLowerCase().includes(name.toLowerCase())
  );
}

/** The field's own name: its last property name ('name' of '0.name'). */
export const lastName = (path: Step[]) =>
  [...path].reverse().find((step): step is string => typeof step === 'string') ?? 'body';

/**
 * Valid path values, so that only the field under test is wrong: a canonical id where the route
 * takes a number, a well-formed text id (of no row) otherwise.
 */
export function pathValues(operation: Operation): Record<string, string> {
  return Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === 'path')
      .map((parameter) => [parameter.name, parameter.schema.pattern ? '1' : 'nothing_here']),
  );
}

/** Text parts of a multipart body: each property of the schema, with its example or first value. */
export function sampleParts(schema: JsonSchema): TextPart[] {
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    value: String(property.examples?.[0] ?? property.enum?.[0] ?? 'sample'),
  }));
}
