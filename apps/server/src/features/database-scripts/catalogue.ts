import type { DatabaseScript } from '@console/contracts';

/**
 * The catalogue of the Database Scripts screen: versioned SQL kept in the repository and
 * reviewed like code. The server runs only these, chosen by id; no request can carry SQL.
 * A new version of a script is a change of `content` with its `version` raised, so the history
 * says which text ran. Each runs in one transaction under `statement_timeout` (`timeoutMs`, else
 * SCRIPT_STATEMENT_TIMEOUT_MS): a script that takes longer is cancelled and rolled back.
 */
export interface CatalogueScript extends Omit<DatabaseScript, 'content'> {
  /** Run one after the other in one transaction; shown joined as the script's content. */
  statements: readonly string[];
  timeoutMs?: number;
}

/** A script as the screen shows it. */
export function toDatabaseScript({
  statements,
  timeoutMs: _timeout,
  ...script
}: CatalogueScript): DatabaseScript {
  return { ...script, content: statements.map((statement) => `${statement};`).join('\n\n') };
}

/** How long one statement of a script may run unless the script says otherwise. */
export const SCRIPT_STATEMENT_TIMEOUT_MS = 30_000;

export const SCRIPT_CATALOGUE: readonly CatalogueScript[] = [
  {
    id: 1,
    name: 'Purge expired sessions',
    description:
      'Deletes sign-in sessions and sign-in attempts that expired more than a day ago (they can no longer be used).',
    type: 'Maintenance',
    version: 1,
    statements: [
      `delete from sessions where expires_at < now() - interval '1 day'`,
      `delete from sign_in_attempts where expires_at < now() - interval '1 day'`,
    ],
  },
  {
    id: 2,
    name: 'Refresh planner statistics',
    description:
      'Runs ANALYZE on the largest tables so that PostgreSQL plans the list queries with current row counts (after a bulk import or seed).',
    type: 'Maintenance',
    version: 1,
    statements: [
      `analyze entities`,
      `analyze entity_users`,
      `analyze events`,
      `analyze processed_events`,
    ],
    timeoutMs: 120_000,
  },
  {
    id: 3,
    name: 'Entities per tenant',
    description: 'Counts the entities and entity users of every tenant.',
    type: 'Report',
    version: 1,
    statements: [
      `select t.id as tenant_id, t.company_name,
       (select count(*) from entities e where e.tenant_id = t.id) as entities,
       (select count(*) from entity_users u where u.tenant_id = t.id) as entity_users
from tenants t
order by t.company_name`,
    ],
  },
  {
    id: 4,
    name: 'Event processing backlog',
    description:
      'Counts, per worker, the events still waiting to be processed and those that failed.',
    type: 'Report',
    version: 1,
    statements: [
      `select worker_name,
       count(*) filter (where processed_at is null and not has_error) as waiting,
       count(*) filter (where has_error) as failed
from processed_events
group by worker_name
order by worker_name`,
    ],
  },
];
