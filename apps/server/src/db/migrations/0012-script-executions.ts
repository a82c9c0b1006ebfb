import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * The history of the Database Scripts screen (spec part 2): one row per execution of a catalogue
 * script, written Running before the script starts and Success or Failed when it ends, so that a
 * script cut short by a crash stays visible as Running. The history is read newest first, one
 * page at a time: the index serves that order (ties broken by id).
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
    `.execute(db);
  },
};
