import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * Form definitions (spec part 2, "Form definition": id, name (unique), description, uiGroupOrder,
 * colSpanOverride 0-12, createdAt, updatedAt). The document types screen lists them to find each
 * type's expected form, and a document type whose expected form exists is "in use" (see
 * docs/reference-data.md). Fields and field groups come with the forms screens, in later migrations.
 */
export const Forms: Migration = {
  version: 5,
  description: 'Form definitions',
  className: 'Forms',
  async up(db) {
    await sql`
      create table forms (
        id serial primary key,
        name text not null unique,
        description text not null default '',
        ui_group_order text[] not null default '{}',
        col_span_override integer check (col_span_override between 0 and 12),
        created_at timestamptz not null default now(),
        created_by text not null,
        updated_at timestamptz not null default now(),
        updated_by text not null
      );
    `.execute(db);
  },
};
