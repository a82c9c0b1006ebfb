import type { DatabaseScriptList, Page, ScriptExecution } from '@console/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import { readPage, walkDirection } from '../../db/paging.ts';
import type { Database, ScriptExecutionsTable } from '../../db/schema.ts';
import { toDatabaseScript, type CatalogueScript } from './catalogue.ts';

/** Only admins execute scripts (spec part 2, section 6: isUserAuthorizedForScripts). */
export const isScriptAdmin = (user: AuthenticatedUser) => user.roles.includes('admin');

/** GET api/database-scripts: the catalogue, and whether the caller may execute. */
export function listScripts(
  user: AuthenticatedUser,
  scripts: readonly CatalogueScript[],
): DatabaseScriptList {
  return {
    scripts: scripts.map(toDatabaseScript),
    isUserAuthorizedForScripts: isScriptAdmin(user),
  };
}

/**
 * GET api/database-scripts/history: newest first, one page (the paging contract), read along the
 * index of migration 12 (executed_at desc, id desc), with the total kept beside it.
 */
export function readHistory(
  db: Kysely<Database>,
  query: { offset: number; limit: number },
): Promise<Page<ScriptExecution>> {
  return readPage(db, {
    ...query,
    // The kept total (migration 12), read in the page's snapshot: exact without counting.
    async count(trx) {
      const { total } = await trx
        .selectFrom('script_execution_total')
        .select('total')
        .executeTakeFirstOrThrow();
      return total;
    },
    async read(trx, plan) {
      const direction = walkDirection(true, plan);
      const rows = await trx
        .selectFrom('script_executions')
        .selectAll()
        .orderBy('executed_at', direction)
        .orderBy('id', direction)
        .limit(plan.limit)
        .offset(plan.offset)
        .execute();
      return rows.map(toScriptExecution);
    },
  });
}

export function toScriptExecution(row: Selectable<ScriptExecutionsTable>): ScriptExecution {
  return {
    id: row.id,
    scriptId: row.script_id,
    scriptName: row.script_name,
    scriptVersion: row.script_version,
    status: row.status,
    executedBy: row.executed_by,
    executedAt: row.executed_at.toISOString(),
    finishedAt: row.finished_at ? row.finished_at.toISOString() : null,
    message: row.message,
  };
}
