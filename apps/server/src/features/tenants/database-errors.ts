/** SQLSTATEs the tenant writes turn into answers (a race lost between a check and a write). */
export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

/** The SQLSTATE of a database error (pg and PGlite both expose it as `code`). */
export function databaseErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
