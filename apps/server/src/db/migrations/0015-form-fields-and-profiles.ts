import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * The form field catalogue, the fields of each form, and the tenant and entity profiles edited
 * through the dynamic forms (spec part 2, "Form field", "Form definition"; part 1, "Dynamic
 * profile forms"; docs/forms.md).
 *
 * - A form lists its fields as an ordered array of field ids, not through a foreign key: a field
 *   can be deleted while forms still name it, and the form-definition dialog then shows the
 *   missing reference in red so that it can be removed (spec 2).
 * - Storage names and form names are unique whatever their letter case: a storage name is a key
 *   of the submitted DataObject and of the stored profile, a form name a path of the service.
 * - A profile is a JSON object of storage name to value on its tenant or entity row; the files of
 *   FileUpload fields are rows of `profile_files`, deleted with their tenant or entity.
 * - The field catalogue is a cached reference list (`reference_versions`, migration 8), like the
 *   forms list.
 */
export const FormFieldsAndProfiles: Migration = {
  version: 15,
  description: 'Form fields, the fields of each form, tenant and entity profiles',
  className: 'FormFieldsAndProfiles',
  async up(db) {
    await sql`
      create table form_fields (
        id serial primary key,
        name text not null,
        display_name text not null,
        type text not null check (type in ('Checkbox', 'Country', 'Date', 'DateTime',
          'DocumentType', 'DropdownYesNo', 'Email', 'FileUpload', 'PartyList', 'PhoneNumber',
          'Select', 'Text')),
        section text,
        field_order integer,
        note text,
        required boolean not null default false,
        validation_error_message text,
        max_length integer check (max_length between 1 and 10000),
        pattern text,
        print_label text,
        require_fields text[] not null default '{}',
        options text[] not null default '{}',
        alias_for text,
        print boolean not null default false,
        print_sequence integer,
        view_permissions text[] not null default '{}',
        edit_permissions text[] not null default '{}',
        ui_group text not null,
        api_references jsonb not null default '{}',
        tags text[] not null default '{}',
        conditional_requirements jsonb not null default '[]',
        created_at timestamptz not null default now(),
        created_by text not null,
        updated_at timestamptz not null default now(),
        updated_by text not null
      );
      create unique index form_fields_name_key on form_fields (lower(name));

      insert into reference_versions (name, version)
      values ('form_fields', (extract(epoch from clock_timestamp()) * 1000)::bigint);
      create trigger form_fields_reference_version
        after insert or update or delete or truncate on form_fields
        for each statement execute function bump_reference_version('form_fields');

      alter table forms add column field_ids integer[] not null default '{}';
      update forms set col_span_override = 0 where col_span_override is null;
      alter table forms alter column col_span_override set default 0;
      alter table forms alter column col_span_override set not null;
      create unique index forms_name_lower_key on forms (lower(name));

      alter table tenants
        add column profile jsonb not null default '{}',
        add column profile_updated_at timestamptz,
        add column profile_updated_by text;
      alter table entities
        add column profile jsonb not null default '{}',
        add column profile_updated_at timestamptz,
        add column profile_updated_by text;

      create table profile_files (
        id serial primary key,
        tenant_id integer references tenants (id) on delete cascade,
        party_entity_id text references entities (party_entity_id) on delete cascade,
        field_name text not null,
        file_name text not null,
        content_type text not null,
        size integer not null,
        content bytea not null,
        uploaded_at timestamptz not null default now(),
        uploaded_by text not null,
        check ((tenant_id is null) <> (party_entity_id is null))
      );
      create unique index profile_files_tenant_field on profile_files (tenant_id, lower(field_name))
        where tenant_id is not null;
      create unique index profile_files_entity_field
        on profile_files (party_entity_id, lower(field_name))
        where party_entity_id is not null;
    `.execute(db);
  },
};
