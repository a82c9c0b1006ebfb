import pg from 'pg';

/** What the server makes of errors that PostgreSQL (through pg) reports. */

/** SQLSTATEs that writes turn into answers (a race lost between a check and a write). */
export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
/** A statement named a table that does not exist (a database not migrated yet). */
export const UNDEFINED_TABLE = '42P01';

/** The SQLSTATE of a database error (pg exposes it as `code`). */
export function databaseErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Runs `write`; when it fails on a SQLSTATE that `answers` names (a race lost between a check and
 * the write, or a constraint left to find the problem), throws that answer instead, which may
 * look in the database to say what went wrong. Any other error goes on as it is.
 */
export async function translateViolations<T>(
  answers: Partial<Record<string, () => Error | Promise<Error>>>,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const answer = answers[databaseErrorCode(error) ?? ''];
    if (answer) throw await answer();
    throw error;
  }
}

// Class 08 (connection exception), 53 (insufficient resources), 57P (operator intervention:
// shutdown, crash recovery) and 57014 (statement timeout or cancel): the database, not the
// request, is the problem, and trying again later can succeed.
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)/;
const STATEMENT_TIMEOUT = '57014';
// Node's socket errors and pg's own messages when it cannot reach the server or get a connection.
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end on the pool',
  'the database system is',
];

/**
 * True when the database is down, restarting or saturated (the server answers 503 with
 * Retry-After instead of a 500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  const code = databaseErrorCode(error);
  if (code && (UNAVAILABLE_SQLSTATE.test(code) || code === STATEMENT_TIMEOUT)) return true;
  if (code && UNAVAILABLE_SOCKET_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return UNAVAILABLE_MESSAGES.some((text) => message.includes(text));
}

/**
 * What a log may say about an error PostgreSQL reported: its SQLSTATE, the constraint, table and
 * column it concerns, and where in PostgreSQL it was raised. Never its message, detail or where
 * (they quote the values of the statement: "Key (email)=(…) already exists", "Failing row
 * contains (…)", "invalid input syntax for type integer: …"), nor the statement's parameters.
 * Null for an error that did not come from PostgreSQL.
 */
export function describeDatabaseError(error: unknown): Record<string, string> | null {
  if (!(error instanceof pg.DatabaseError)) return null;
  const described: Record<string, string> = { type: 'DatabaseError' };
  for (const field of ['code', 'severity', 'constraint', 'schema', 'table', 'column', 'routine']) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (typeof value === 'string' && value !== '') described[field] = value;
  }
  return described;
}
