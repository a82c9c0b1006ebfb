import { databaseScriptMessages, type ScriptExecutionResult } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { recordEvent } from '../../outbox/index.ts';
import { SCRIPT_STATEMENT_TIMEOUT_MS, type CatalogueScript } from './catalogue.ts';

/**
 * POST api/database-scripts/execute/{id}: runs a catalogue script (never SQL from the request).
 *
 * The history row is committed as Running first, so a script that is still running, or was cut
 * short by a crash, is visible. The script then runs in one transaction under its statement
 * timeout, and on success that same transaction marks the row Success and records the event: the
 * history says Success exactly when the script's changes committed. On failure (an error, the
 * timeout) the script's transaction rolls back and a second one marks the row Failed.
 */
export async function executeScript(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  scripts: readonly CatalogueScript[],
  id: number,
): Promise<ScriptExecutionResult> {
  const script = scripts.find((candidate) => candidate.id === id);
  if (!script) throw notFound(`Script ${id} not found.`);
  const timeoutMs = script.timeoutMs ?? SCRIPT_STATEMENT_TIMEOUT_MS;
  const { id: executionId } = await db
    .insertInto('script_executions')
    .values({
      script_id: script.id,
      script_name: script.name,
      script_version: script.version,
      status: 'Running',
      executed_by: actor.email,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  try {
    await db.transaction().execute(async (trx) => {
      await sql`select set_config('statement_timeout', ${String(timeoutMs)}, true)`.execute(trx);
      const outcome = await runStatements(trx, script);
      await finish(trx, actor, script, executionId, 'Success', outcome);
    });
    return {
      success: true,
      message: databaseScriptMessages.executed(script.name),
      errorDetails: null,
      executionId,
    };
  } catch (error) {
    // The database being down is the caller's 503 (the row stays Running: nothing can say more).
    if (isDatabaseUnavailable(error) && !isStatementTimeout(error)) throw error;
    const reason = failureText(error, timeoutMs);
    await db
      .transaction()
      .execute((trx) => finish(trx, actor, script, executionId, 'Failed', reason));
    return {
      success: false,
      message: databaseScriptMessages.failed,
      errorDetails: reason,
      executionId,
    };
  }
}

/** Runs the statements in order; says what they did (rows a report returned, rows changed). */
async function runStatements(trx: Kysely<Database>, script: CatalogueScript): Promise<string> {
  let returned = 0;
  let affected = 0;
  for (const statement of script.statements) {
    const result = await sql.raw(statement).execute(trx);
    returned += result.rows.length;
    affected += Number(result.numAffectedRows ?? 0);
  }
  return script.type === 'Report'
    ? `Returned ${returned} row(s)`
    : `${affected} row(s) affected by ${script.statements.length} statement(s)`;
}

async function finish(
  trx: Kysely<Database>,
  actor: AuthenticatedUser,
  script: CatalogueScript,
  executionId: number,
  status: 'Success' | 'Failed',
  message: string,
): Promise<void> {
  await trx
    .updateTable('script_executions')
    .set({ status, message, finished_at: new Date() })
    .where('id', '=', executionId)
    .execute();
  await recordEvent(trx, {
    eventName: status === 'Success' ? 'DatabaseScriptExecuted' : 'DatabaseScriptFailed',
    metadata: {
      actor: actor.email,
      action: 'execute',
      scriptId: script.id,
      scriptName: script.name,
      scriptVersion: script.version,
      executionId,
      message,
      target: { type: 'DatabaseScript', id: script.id, name: script.name },
      after: { status, message },
    },
  });
}

const STATEMENT_TIMEOUT = '57014';

function isStatementTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === STATEMENT_TIMEOUT;
}

/** What the history and the admin read about a failure: the timeout in words, else PostgreSQL's. */
function failureText(error: unknown, timeoutMs: number): string {
  if (isStatementTimeout(error)) {
    return `Cancelled: a statement ran longer than the script's timeout of ${timeoutMs} ms`;
  }
  return error instanceof Error ? error.message : String(error);
}
