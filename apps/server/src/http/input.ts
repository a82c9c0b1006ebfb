import { findJsonProblem, isStorableText, unstorableTextMessage } from '@console/contracts';
import type { ConsoleApp } from './console-app.ts';
import { badRequest, HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The handler refuses every text of the body it stores, field by field, with the field's own
     * message, so the backstop leaves the body alone: a ratings import's records (50,000 of 55
     * fields, whose walk cost about as much as their validation), an invalid one being skipped or
     * failing the import as the request asks, their other fields never stored.
     */
    bodyTextChecked?: boolean;
  }
}

/**
 * What every request goes through before its route sees it (docs/architecture.md, "Input"):
 * JSON bodies are UTF-8 (another charset is a 415, bytes that are not UTF-8 a 400), nest at most
 * JSON_DEPTH_MAX levels and have no prototype key (`__proto__`, `constructor`, `toString`, ...)
 * anywhere, each a 400 naming its path; after validation, no string anywhere in the path, query
 * or body (keys included) holds a NUL or a lone surrogate. The contracts' `text()` refuses those
 * first, with the field's own message; this is the backstop for what a schema leaves open (an
 * unknown value, a record key) or a route without a schema, so that no such text reaches
 * PostgreSQL (a route whose handler checks its body's texts itself says so: `bodyTextChecked`).
 */
export function registerInputRules(app: ConsoleApp): void {
  app.removeContentTypeParser('application/json');
  // Plain JSON.parse: `__proto__` stays an own key, for findJsonProblem to refuse by its path
  // (Fastify's own refusal names nothing, and lets `constructor` and `toString` through).
  const parseJson = app.getDefaultJsonParser('ignore', 'ignore');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let json: string;
    try {
      json = readUtf8(request.headers['content-type'], body as Buffer);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    void parseJson(request, json, (error, value) => {
      if (error) return done(error, undefined);
      const problem = findJsonProblem(value, 'the body');
      if (problem) {
        const { path, message } = problem;
        return done(
          badRequest(message, { errors: [{ path: path.join('.'), message }] }),
          undefined,
        );
      }
      return done(null, value);
    });
  });
  app.addHook('preHandler', async (request) => {
    const { bodyTextChecked } = request.routeOptions.config;
    const parts = {
      path: request.params,
      query: request.query,
      body: bodyTextChecked ? undefined : request.body,
    };
    for (const [part, value] of Object.entries(parts)) {
      const problem = findUnstorableText(value, part);
      if (problem) throw badRequest(problem.message, { errors: [problem] });
    }
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text: only UTF-8 is read (JSON's own encoding, RFC 8259). */
function readUtf8(contentType: string | undefined, body: Buffer): string {
  const charset = charsetOf(contentType ?? '');
  if (charset !== null && charset !== 'utf-8') {
    const message = `Content-Type: charset ${charset} is not supported; send JSON as UTF-8`;
    throw new HttpError(415, message, { errors: [{ path: 'content-type', message }] });
  }
  try {
    return utf8.decode(body);
  } catch {
    throw badRequest('The body is not valid UTF-8');
  }
}

/** The charset parameter of a Content-Type header, lower-cased and unquoted; null when absent. */
export function charsetOf(contentType: string): string | null {
  for (const parameter of contentType.split(';').slice(1)) {
    const [name = '', ...rest] = parameter.split('=');
    if (name.trim().toLowerCase() === 'charset') {
      return rest
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase();
    }
  }
  return null;
}

interface TextProblem {
  path: string;
  message: string;
}

/**
 * The first string or key in `value` that cannot be stored (NUL, lone surrogate), named by its
 * path ('tags.0', 'eventName'). Recursive with one shared path: bodies are depth-limited
 * (JSON_DEPTH_MAX, checked when parsed), queries and paths are flat.
 */
export function findUnstorableText(value: unknown, part: string): TextProblem | null {
  return unstorableTextIn(value, part, []);
}

function unstorableTextIn(value: unknown, part: string, path: string[]): TextProblem | null {
  if (typeof value === 'string') {
    // The path is joined only for a text that fails: most walks find nothing.
    if (isStorableText(value)) return null;
    const name = path.join('.') || part;
    const message = unstorableTextMessage(value, name);
    return message ? { path: name, message } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const keys = Array.isArray(value) ? null : Object.keys(record);
  const count = keys ? keys.length : (value as unknown[]).length;
  for (let index = 0; index < count; index++) {
    const key = keys ? keys[index]! : String(index);
    if (keys && !isStorableText(key)) {
      const name = path.join('.') || part;
      // The key itself is not repeated in the answer: it is the text that cannot be shown.
      const message = unstorableTextMessage(key, `A key of ${name}`);
      if (message) return { path: name, message };
    }
    path.push(key);
    const problem = unstorableTextIn(record[key], part, path);
    if (problem) return problem;
    path.pop();
  }
  return null;
}
