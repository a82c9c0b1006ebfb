import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * What keeps lists fast without ever answering stale or inexact (docs/architecture.md, "Speed"):
 *
 * - `reference_versions`: one version per cached reference list (countries, document types,
 *   forms). A statement-level trigger on each table bumps it in the writing transaction, for every
 *   write however it is made (API, import, seed, psql), and sends `pg_notify` so that every
 *   instance drops its cached body as soon as the write commits. A version starts at the
 *   migration's clock in milliseconds: a new database never repeats an ETag an old one handed out.
 * - `list_counts`: rows of entities and entity users per tenant, kept by statement-level triggers
 *   (transition tables, one upsert per tenant a statement touched), so `totalCount` is read from a
 *   few rows instead of counting a million. A truncate empties the counts of its table.
 */
export const ReferenceVersionsAndListCounts: Migration = {
  version: 8,
  description: 'Versions of the cached reference lists; row counts of the entity lists per tenant',
  className: 'ReferenceVersionsAndListCounts',
  async up(db) {
    await sql`
      create table reference_versions (
        name text primary key,
        version bigint not null
      );
      insert into reference_versions (name, version)
      select name, (extract(epoch from clock_timestamp()) * 1000)::bigint
      from unnest(array['countries', 'document_types', 'forms']) as name;

      create function bump_reference_version() returns trigger language plpgsql as $$
      declare
        new_version bigint;
      begin
        update reference_versions set version = version + 1
        where name = tg_argv[0]
        returning version into new_version;
        perform pg_notify('reference_versions', tg_argv[0] || ':' || new_version);
        return null;
      end
      $$;
      create trigger countries_reference_version
        after insert or update or delete or truncate on countries
        for each statement execute function bump_reference_version('countries');
      create trigger document_types_reference_version
        after insert or update or delete or truncate on document_types
        for each statement execute function bump_reference_version('document_types');
      create trigger forms_reference_version
        after insert or update or delete or truncate on forms
        for each statement execute function bump_reference_version('forms');

      create table list_counts (
        list text not null,
        tenant_id integer not null,
        row_count bigint not null,
        primary key (list, tenant_id)
      );
      insert into list_counts (list, tenant_id, row_count)
      select 'entities', tenant_id, count(*) from entities group by tenant_id;
      insert into list_counts (list, tenant_id, row_count)
      select 'entity_users', tenant_id, count(*) from entity_users group by tenant_id;

      -- Tenants in id order: two statements touching the same tenants lock their rows in the same
      -- order, so they wait for each other instead of deadlocking.
      create function count_list_rows() returns trigger language plpgsql as $$
      begin
        if tg_op = 'TRUNCATE' then
          delete from list_counts where list = tg_argv[0];
        elsif tg_op = 'INSERT' then
          insert into list_counts as counts (list, tenant_id, row_count)
          select tg_argv[0], tenant_id, count(*) from new_rows group by tenant_id order by tenant_id
          on conflict (list, tenant_id) do update set row_count = counts.row_count + excluded.row_count;
        elsif tg_op = 'DELETE' then
          insert into list_counts as counts (list, tenant_id, row_count)
          select tg_argv[0], tenant_id, -count(*) from old_rows group by tenant_id order by tenant_id
          on conflict (list, tenant_id) do update set row_count = counts.row_count + excluded.row_count;
        else
          insert into list_counts as counts (list, tenant_id, row_count)
          select tg_argv[0], tenant_id, sum(delta) from (
            select tenant_id, 1 as delta from new_rows
            union all
            select tenant_id, -1 from old_rows
          ) as moved
          group by tenant_id having sum(delta) <> 0 order by tenant_id
          on conflict (list, tenant_id) do update set row_count = counts.row_count + excluded.row_count;
        end if;
        return null;
      end
      $$;
      create trigger entities_count_insert after insert on entities
        referencing new table as new_rows
        for each statement execute function count_list_rows('entities');
      create trigger entities_count_delete after delete on entities
        referencing old table as old_rows
        for each statement execute function count_list_rows('entities');
      create trigger entities_count_update after update on entities
        referencing old table as old_rows new table as new_rows
        for each statement execute function count_list_rows('entities');
      create trigger entities_count_truncate after truncate on entities
        for each statement execute function count_list_rows('entities');
      create trigger entity_users_count_insert after insert on entity_users
        referencing new table as new_rows
        for each statement execute function count_list_rows('entity_users');
      create trigger entity_users_count_delete after delete on entity_users
        referencing old table as old_rows
        for each statement execute function count_list_rows('entity_users');
      create trigger entity_users_count_update after update on entity_users
        referencing old table as old_rows new table as new_rows
        for each statement execute function count_list_rows('entity_users');
      create trigger entity_users_count_truncate after truncate on entity_users
        for each statement execute function count_list_rows('entity_users');
    `.execute(db);
  },
};
