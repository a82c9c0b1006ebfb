import { sql } from 'kysely';
import type { Migration } from './migration.ts';
import { INVITATION_SEED } from './email-template-seed.ts';

/**
 * Email templates and their versions (spec part 2, "EmailTemplate" and "Template version").
 * A template's key is unique within its scope (tenant, entity; null = instance level / none:
 * NULLS NOT DISTINCT, so two instance-level templates cannot share a key). Versions belong to one
 * template, are numbered from 1 without reuse, and go with it when it is deleted. The active
 * version must be one of the template's own (composite foreign key). Tenants and entities keep
 * their templates: deleting one while a template names it is refused (409).
 * The seeded 'tenant-user-invitation' template is what the notifications worker mails.
 */
export const EmailTemplates: Migration = {
  version: 13,
  description: 'Email templates with versions; the tenant-user invitation template',
  className: 'EmailTemplates',
  async up(db) {
    await sql`
      create table email_templates (
        id serial primary key,
        template_key text not null,
        tenant_id integer references tenants (id),
        party_entity_id text references entities (party_entity_id),
        product_type integer not null,
        product_scope integer not null,
        active_version_id integer,
        created_at timestamptz not null default now(),
        created_by text not null,
        updated_at timestamptz not null default now(),
        updated_by text not null,
        constraint email_templates_key_scope unique nulls not distinct
          (template_key, tenant_id, party_entity_id)
      );
      create table email_template_versions (
        id serial primary key,
        email_template_id integer not null references email_templates (id) on delete cascade,
        version_number integer not null check (version_number > 0),
        from_address text not null,
        subject text not null,
        body text not null,
        text_content text not null,
        json_schema text,
        created_at timestamptz not null default now(),
        created_by text not null,
        updated_at timestamptz not null default now(),
        updated_by text not null,
        unique (email_template_id, version_number),
        unique (email_template_id, id)
      );
      alter table email_templates
        add constraint email_templates_active_version
        foreign key (id, active_version_id) references email_template_versions (email_template_id, id);
      create index email_templates_tenant on email_templates (tenant_id);
      create index email_templates_entity on email_templates (party_entity_id);
    `.execute(db);
    const { rows } = await sql<{ id: number }>`
      insert into email_templates
        (template_key, product_type, product_scope, created_by, updated_by)
      values (${INVITATION_SEED.templateKey}, 0, 0, 'migration', 'migration')
      returning id
    `.execute(db);
    const templateId = rows[0]!.id;
    const { subject, fromAddress, body, textContent, jsonSchema } = INVITATION_SEED;
    await sql`
      with version as (
        insert into email_template_versions
          (email_template_id, version_number, from_address, subject, body, text_content,
           json_schema, created_by, updated_by)
        values (${templateId}, 1, ${fromAddress}, ${subject}, ${body}, ${textContent},
          ${jsonSchema}, 'migration', 'migration')
        returning id
      )
      update email_templates set active_version_id = (select id from version)
      where id = ${templateId}
    `.execute(db);
  },
};
