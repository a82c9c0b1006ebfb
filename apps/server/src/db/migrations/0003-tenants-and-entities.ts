import { sql } from 'kysely';
import type { Migration } from './migration.ts';

export const TenantsAndEntities: Migration = {
  version: 3,
  description: 'Tenants, tenant users, entities and entity users',
  className: 'TenantsAndEntities',
  async up(db) {
    await sql`
      create table tenants (
        id serial primary key,
        company_name text not null,
        domicile_country_id integer not null references countries (id),
        created_at timestamptz not null default now(),
        created_by text not null,
        updated_at timestamptz not null default now(),
        updated_by text not null
      );
      create index tenants_domicile_country_id on tenants (domicile_country_id);
      create table tenant_namespaces (
        namespace text primary key,
        tenant_id integer not null references tenants (id) on delete cascade
      );
      create index tenant_namespaces_tenant_id on tenant_namespaces (tenant_id);
      create table tenant_users (
        id serial primary key,
        email text not null unique,
        tenant_id integer not null references tenants (id),
        created_at timestamptz not null default now(),
        created_by text not null,
        updated_at timestamptz not null default now(),
        updated_by text not null
      );
      create index tenant_users_tenant_id on tenant_users (tenant_id);
      create table entities (
        party_entity_id text primary key,
        tenant_id integer not null references tenants (id),
        names jsonb not null default '{"names":{}}',
        country text,
        created_at timestamptz not null default now()
      );
      create index entities_tenant_id on entities (tenant_id, party_entity_id);
      create table entity_users (
        party_user_id text primary key,
        party_entity_id text not null references entities (party_entity_id),
        tenant_id integer not null references tenants (id),
        type integer not null,
        state text not null,
        email text,
        metadata jsonb not null default '{}',
        keys jsonb not null default '{}',
        created_at timestamptz not null default now()
      );
      create index entity_users_tenant_id on entity_users (tenant_id, party_user_id);
      create index entity_users_party_entity_id on entity_users (party_entity_id);
    `.execute(db);
  },
};
