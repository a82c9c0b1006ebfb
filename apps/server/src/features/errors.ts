import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** How the feature routes answer errors (app.ts's handler does the rest). */

/** The JSON body of every error answer: a message, sometimes more (e.g. `errors`). */
export const errorBodySchema = z.looseObject({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** Response schemas of the error statuses a route can answer, for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema]));
}

/** Most problems listed in `message`; `errors` carries them all (up to a limit) with their path. */
const MESSAGE_PROBLEMS = 10;
const LISTED_PROBLEMS = 100;

export interface RequestProblem {
  /** Where, e.g. 'displayName', '3.alpha2' (record 3 of an import), 'validityPeriod.months'. */
  path: string;
  message: string;
}

/**
 * 400 for a request its schema refuses, with a message a person can act on: the rule's own text
 * when it is a sentence of ours (the spec's ID messages arrive word for word: `{message: 'ID must
 * start with a lowercase letter'}`), otherwise prefixed by the field; records of an import are
 * named by their index ('Record at index 3: alpha2 must be exactly 2 letters (A-Z)').
 */
export function invalidRequestHandler(
  error: unknown,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  if (!hasZodFastifySchemaValidationErrors(error)) throw error;
  const problems = error.validation.map((issue): RequestProblem => {
    const path = issue.instancePath.split('/').filter(Boolean);
    return {
      path: path.join('.') || (error.validationContext ?? ''),
      message: describeProblem(path, issue.keyword, issue.message ?? 'is invalid'),
    };
  });
  return reply.code(400).send(problemsBody(problems));
}

/** The body of a 400 listing `problems`: the first few in `message`, up to a limit in `errors`. */
export function problemsBody(problems: readonly RequestProblem[]): {
  message: string;
  errors: RequestProblem[];
} {
  const shown = problems.slice(0, MESSAGE_PROBLEMS).map((problem) => problem.message);
  if (problems.length > MESSAGE_PROBLEMS) {
    shown.push(`and ${problems.length - MESSAGE_PROBLEMS} more problems`);
  }
  return { message: shown.join('; '), errors: problems.slice(0, LISTED_PROBLEMS) };
}

function describeProblem(path: string[], code: string, message: string): string {
  const [first, ...rest] = path;
  const isRecord = first !== undefined && /^\d+$/.test(first);
  const fieldPath = isRecord ? rest : path;
  const field = fieldPath.at(-1);
  // Our own rules (custom checks, the length limits of the contracts' text()), messages that
  // begin with their field and messages that end with a full stop (the spec's sentences, such as
  // 'Storage name is required.' for a missing name) are sentences already; zod's own messages
  // never end with a full stop, and its length messages begin 'Too '.
  const isSentence =
    code === 'custom' ||
    (code === 'too_big' && !message.startsWith('Too ')) ||
    field === undefined ||
    message.endsWith('.') ||
    message.toLowerCase().startsWith(field.toLowerCase());
  const text = isSentence ? message : `${fieldPath.join('.')}: ${message}`;
  return isRecord ? `Record at index ${first}: ${text}` : text;
}
