import { sql } from 'kysely';
import type { Migration } from './migration.ts';

export const ReferenceData: Migration = {
  version: 2,
  description: 'Countries and document types',
  className: 'ReferenceData',
  async up(db) {
    await sql`
      create table countries (
        id integer primary key,
        alpha2 char(2) not null unique,
        alpha3 char(3) not null unique,
        name text not null,
        sequence integer,
        valid_from timestamptz,
        valid_to timestamptz,
        cached_risk text,
        cached_risk_at timestamptz,
        created_at timestamptz not null default now(),
        created_by text not null,
        updated_at timestamptz not null default now(),
        updated_by text not null
      );
      create table document_types (
        id text primary key,
        display_name text not null,
        tags text[] not null default '{}',
        api_references jsonb not null default '{}',
        sequence integer,
        valid_from timestamptz,
        valid_to timestamptz,
        validity_period jsonb,
        created_at timestamptz not null default now(),
        created_by text not null,
        updated_at timestamptz not null default now(),
        updated_by text not null
      );
    `.execute(db);
  },
};
