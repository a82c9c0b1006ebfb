import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * Generations of the entity lists, for exact deep pages (db/page-anchors.ts, docs/architecture.md
 * "Speed"): `list_counts.generation` grows by one in every transaction that changes which keys a
 * tenant's list holds (insert, delete, an update that changes a key or moves a row to another
 * tenant, truncate), bumped by the same statement-level triggers that keep the counts, on the row
 * they already lock. A page read in a snapshot showing generation g sees exactly the keys of every
 * other snapshot showing g, so positions of keys found at g stay true at g.
 *
 * A truncate now zeroes its list's rows instead of deleting them: a deleted row would restart its
 * generation and could repeat an old one.
 */
export const ListGenerations: Migration = {
  version: 10,
  description: 'Generations of the entity lists per tenant, bumped with their counts',
  className: 'ListGenerations',
  async up(db) {
    await sql`
      alter table list_counts add column generation bigint not null default 0;

      -- An update changes a list only where a (tenant, key) pair appears on one side: the key
      -- column (tg_argv[1]) is named in dynamic SQL, which sees the transition tables too.
      create or replace function count_list_rows() returns trigger language plpgsql as $$
      begin
        if tg_op = 'TRUNCATE' then
          update list_counts set row_count = 0, generation = generation + 1
          where list = tg_argv[0];
        elsif tg_op = 'INSERT' then
          insert into list_counts as counts (list, tenant_id, row_count, generation)
          select tg_argv[0], tenant_id, count(*), 1 from new_rows group by tenant_id order by tenant_id
          on conflict (list, tenant_id) do update
          set row_count = counts.row_count + excluded.row_count, generation = counts.generation + 1;
        elsif tg_op = 'DELETE' then
          insert into list_counts as counts (list, tenant_id, row_count, generation)
          select tg_argv[0], tenant_id, -count(*), 1 from old_rows group by tenant_id order by tenant_id
          on conflict (list, tenant_id) do update
          set row_count = counts.row_count + excluded.row_count, generation = counts.generation + 1;
        else
          execute format($update$
            insert into list_counts as counts (list, tenant_id, row_count, generation)
            select $1, tenant_id, sum(delta), 1 from (
              select tenant_id, sum(delta) as delta from (
                select tenant_id, %1$I as key, 1 as delta from new_rows
                union all
                select tenant_id, %1$I, -1 from old_rows
              ) as sides
              group by tenant_id, key having sum(delta) <> 0
            ) as changed
            group by tenant_id order by tenant_id
            on conflict (list, tenant_id) do update
            set row_count = counts.row_count + excluded.row_count, generation = counts.generation + 1
          $update$, tg_argv[1]) using tg_argv[0];
        end if;
        return null;
      end
      $$;
      drop trigger entities_count_update on entities;
      create trigger entities_count_update after update on entities
        referencing old table as old_rows new table as new_rows
        for each statement execute function count_list_rows('entities', 'party_entity_id');
      drop trigger entity_users_count_update on entity_users;
      create trigger entity_users_count_update after update on entity_users
        referencing old table as old_rows new table as new_rows
        for each statement execute function count_list_rows('entity_users', 'party_user_id');
    `.execute(db);
  },
};
