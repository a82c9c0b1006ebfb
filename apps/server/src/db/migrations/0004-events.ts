import { sql } from 'kysely';
import type { Migration } from './migration.ts';

export const Events: Migration = {
  version: 4,
  description: 'Event log and per-worker processing records',
  className: 'Events',
  async up(db) {
    await sql`
      create table events (
        id bigserial primary key,
        event_name text not null,
        tenant_id integer,
        entity_id text,
        unique_id text not null unique,
        created_at timestamptz not null default now(),
        metadata jsonb not null default '{}',
        is_processed boolean not null default false,
        has_error boolean not null default false
      );
      create index events_created_at on events (created_at, id);
      create index events_tenant_created_at on events (tenant_id, created_at, id);
      create index events_unprocessed on events (created_at, id) where not is_processed;
      create index events_errored on events (created_at, id) where has_error;
      create table processed_events (
        event_id bigint not null references events (id) on delete cascade,
        worker_name text not null,
        has_error boolean not null default false,
        error_message text,
        processed_at timestamptz,
        attempts integer not null default 0,
        primary key (event_id, worker_name)
      );
    `.execute(db);
  },
};
