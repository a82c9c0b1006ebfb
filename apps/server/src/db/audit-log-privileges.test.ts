import { sql, type Kysely, type RawBuilder } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/test-database.ts';
import type { Database } from './schema.ts';

// What protects the append-only audit log (docs/audit.md, "How it is protected"): the trigger,
// prune_audit_log's privileges and bounds (migrations 7, 23, 25), and the separate server role
// an operator can set up. Each scenario runs in a transaction that is rolled back, its role too
// (the test database's user must be allowed to create roles, as the embedded cluster's is).

const database = useTestDatabase();
const PRUNE = 'prune_audit_log(timestamptz, integer)';
/** The server role of docs/audit.md: a role of this transaction only. */
const SERVER_ROLE = 'audit_test_server_role';

class RolledBack extends Error {}

/** Runs `scenario` in a transaction that is rolled back whatever it did. */
async function rolledBack(scenario: (trx: Kysely<Database>) => Promise<void>): Promise<void> {
  await database.db
    .transaction()
    .execute(async (trx) => {
      await scenario(trx);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
}

/** Runs `statement` under a savepoint: answers 'done', or the database's refusal. */
async function attempt(trx: Kysely<Database>, statement: RawBuilder<unknown>): Promise<string> {
  await sql`savepoint attempt`.execute(trx);
  try {
    await statement.execute(trx);
    await sql`release savepoint attempt`.execute(trx);
    return 'done';
  } catch (error) {
    await sql`rollback to savepoint attempt`.execute(trx);
    return error instanceof Error ? error.message : String(error);
  }
}

const auditRow = (age: string) => sql`
  insert into audit_log (event_id, event_name, metadata, occurred_at)
  values (0, 'PrivilegesTest', '{}', now() - ${age}::interval)`;

const testRows = (trx: Kysely<Database>) =>
  trx
    .selectFrom('audit_log')
    .select('id')
    .where('event_name', '=', 'PrivilegesTest')
    .execute()
    .then((rows) => rows.length);

describe('the audit log is append-only', () => {
  it('denies PUBLIC prune_audit_log; its owner, which retention runs as, may call it', async () => {
    const { rows } = await sql<{ publicMay: boolean; ownerMay: boolean }>`
      select has_function_privilege('public', ${PRUNE}, 'execute') as "publicMay",
             has_function_privilege(current_user, ${PRUNE}, 'execute') as "ownerMay"
    `.execute(database.db);
    expect(rows[0]).toEqual({ publicMay: false, ownerMay: true });
  });

  it('prunes only rows a day old or older, in batches of 1 to 10,000', async () => {
    await rolledBack(async (trx) => {
      await auditRow('1 minute').execute(trx);
      const prune = (cutoff: string, batch: number) =>
        attempt(trx, sql`select prune_audit_log(now() - ${cutoff}::interval, ${batch})`);
      expect(await prune('0 seconds', 100)).toMatch(/keeps the last day/);
      expect(await prune('1 hour', 100)).toMatch(/keeps the last day/);
      expect(await prune('2 days', 0)).toMatch(/1 to 10000 rows a call, not 0/);
      expect(await prune('2 days', 10_001)).toMatch(/not 10001/);
      expect(await testRows(trx)).toBe(1);
    });
  });

  it('refuses updates and deletes to its owner too, unless it sets the pruning flag itself', async () => {
    await rolledBack(async (trx) => {
      await auditRow('1 minute').execute(trx);
      expect(await attempt(trx, sql`delete from audit_log`)).toMatch(/append-only/);
      expect(await attempt(trx, sql`update audit_log set actor = 'x'`)).toMatch(/append-only/);
      expect(await attempt(trx, sql`truncate audit_log`)).toMatch(/append-only/);
      // The flag is a guard against the console's own mistakes, not a secret: the owner (and
      // anyone holding DELETE on the table) can set it. Hence the separate role below.
      await sql`set local console.audit_prune = 'on'`.execute(trx);
      expect(
        await attempt(trx, sql`delete from audit_log where event_name = 'PrivilegesTest'`),
      ).toBe('done');
    });
  });

  it('leaves a server role set up as documented INSERT, SELECT and pruning rows a day old', async () => {
    await rolledBack(async (trx) => {
      await auditRow('400 days').execute(trx);
      // docs/audit.md, "A separate role for the server", but for its login and the database.
      const role = sql.id(SERVER_ROLE);
      await sql`
        create role ${role} nologin;
        grant usage on schema public to ${role};
        grant select, insert, update, delete on all tables in schema public to ${role};
        grant usage, select on all sequences in schema public to ${role};
        revoke update, delete, truncate on audit_log from ${role};
      `.execute(trx);
      const asServer = async (statement: RawBuilder<unknown>) => {
        await sql`set local role ${role}`.execute(trx);
        const outcome = await attempt(trx, statement);
        await sql`reset role`.execute(trx);
        return outcome;
      };

      expect(await asServer(auditRow('1 minute'))).toBe('done');
      expect(await asServer(sql`select count(*) from audit_log`)).toBe('done');
      expect(await asServer(sql`delete from audit_log`)).toMatch(/permission denied/);
      expect(await asServer(sql`update audit_log set actor = 'x'`)).toMatch(/permission denied/);
      expect(await asServer(sql`truncate audit_log`)).toMatch(/permission denied/);
      expect(await asServer(sql`alter table audit_log disable trigger all`)).toMatch(
        /must be owner/,
      );
      // The flag opens nothing to a role without DELETE: privileges come before the trigger.
      await sql`set local console.audit_prune = 'on'`.execute(trx);
      expect(await asServer(sql`delete from audit_log`)).toMatch(/permission denied/);
      await sql`set local console.audit_prune = 'off'`.execute(trx);
      // PUBLIC may not prune: only with the grant that AUDIT_RETENTION_DAYS needs.
      const prune = sql`select prune_audit_log(now() - interval '1 year', 1000)`;
      expect(await asServer(prune)).toMatch(/permission denied for function prune_audit_log/);
      await sql`grant execute on function prune_audit_log(timestamptz, integer) to ${role}`.execute(
        trx,
      );
      expect(await asServer(prune)).toBe('done');
      expect(await asServer(sql`select prune_audit_log(now(), 1000)`)).toMatch(
        /keeps the last day/,
      );
      // The old row went through the function; the new one stays.
      expect(await testRows(trx)).toBe(1);
    });
  });
});
