import type { ConsoleApp } from '../src/http/console-app.ts';

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
