import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * The history of the Database Scripts screen (spec part 2): one row per execution of a catalogue
 * script, written Running before the script starts and Success or Failed when it ends, so that a
 * script cut short by a crash stays visible as Running. The history is read newest first, one
 * page at a time: the index serves that order (ties broken by id). Its total is kept in a
 * one-row table by statement-level triggers (as list_counts, migration 8), so a page does not
 * count 100,000 rows: executions are rare, so writers queueing on that row costs nothing.
 */
export const ScriptExecutions: Migration = {
  version: 12,
  description: 'Execution history of the database scripts',
  className: 'ScriptExecutions',
  async up(db) {
    await sql`
      create table script_executions (
        id bigserial primary key,
        script_id integer not null,
        script_name text not null,
        script_version integer not null,
        status text not null check (status in ('Running', 'Success', 'Failed')),
        executed_by text not null,
        executed_at timestamptz not null default now(),
        finished_at timestamptz,
        message text
      );
      create index script_executions_newest on script_executions (executed_at desc, id desc);

      create table script_execution_total (
        only_row boolean primary key default true check (only_row),
        total bigint not null
      );
      insert into script_execution_total (total) values (0);

      create function count_script_executions() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update script_execution_total set total = total + (select count(*) from added);
        elsif tg_op = 'DELETE' then
          update script_execution_total set total = total - (select count(*) from removed);
        else
          update script_execution_total set total = 0;
        end if;
        return null;
      end $$;
      create trigger script_executions_count_insert after insert on script_executions
        referencing new table as added
        for each statement execute function count_script_executions();
      create trigger script_executions_count_delete after delete on script_executions
        referencing old table as removed
        for each statement execute function count_script_executions();
      create trigger script_executions_count_truncate after truncate on script_executions
        for each statement execute function count_script_executions();
    `.execute(db);
  },
};
