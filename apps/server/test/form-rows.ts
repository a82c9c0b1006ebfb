import type { FieldPermissionRole, FormFieldType } from '@console/contracts';
import type { Insertable, Kysely } from 'kysely';
import type { Database, FormFieldsTable } from '../src/db/schema.ts';
import { stamp } from './callers.ts';

/** Rows of the field catalogue and of forms, inserted directly (the suites of the form usage calls). */

export interface FieldRow {
  name: string;
  type?: FormFieldType;
  displayName?: string;
  uiGroup?: string;
  order?: number | null;
  note?: string | null;
  required?: boolean;
  validationErrorMessage?: string | null;
  maxLength?: number | null;
  pattern?: string | null;
  options?: string[];
  requireFields?: string[];
  aliasFor?: string | null;
  viewPermissions?: FieldPermissionRole[];
  editPermissions?: FieldPermissionRole[];
  conditionalRequirements?: {
    fieldName: string;
    triggerValues: string[];
    validationMessage?: string | null;
  }[];
}

/** Inserts the fields, answering their ids in the same order. */
export async function insertFields(db: Kysely<Database>, fields: FieldRow[]): Promise<number[]> {
  if (fields.length === 0) return [];
  const rows = fields.map((field): Insertable<FormFieldsTable> => ({
    name: field.name,
    display_name: field.displayName ?? field.name,
    type: field.type ?? 'Text',
    ui_group: field.uiGroup ?? 'General',
    field_order: field.order ?? null,
    note: field.note ?? null,
    required: field.required ?? false,
    validation_error_message: field.validationErrorMessage ?? null,
    max_length: field.maxLength ?? null,
    pattern: field.pattern ?? null,
    print_label: null,
    section: null,
    print_sequence: null,
    options: field.options ?? [],
    require_fields: field.requireFields ?? [],
    alias_for: field.aliasFor ?? null,
    view_permissions: field.viewPermissions ?? [],
    edit_permissions: field.editPermissions ?? [],
    api_references: JSON.stringify({}),
    conditional_requirements: JSON.stringify(field.conditionalRequirements ?? []),
    ...stamp,
  }));
  const inserted = await db.insertInto('form_fields').values(rows).returning('id').execute();
  return inserted.map((row) => row.id);
}

/** Inserts a form naming `fieldIds` in that order; answers its id. */
export async function insertForm(
  db: Kysely<Database>,
  name: string,
  fieldIds: number[],
  more: { uiGroupOrder?: string[]; colSpanOverride?: number } = {},
): Promise<number> {
  const row = await db
    .insertInto('forms')
    .values({
      name,
      field_ids: fieldIds,
      ui_group_order: more.uiGroupOrder ?? [],
      col_span_override: more.colSpanOverride ?? 0,
      ...stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Empties the catalogue, the forms and the stored profiles (a suite's beforeEach). */
export async function clearFormsAndProfiles(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('forms').execute();
  await db.deleteFrom('form_fields').execute();
  await db.deleteFrom('profile_files').execute();
  await db
    .updateTable('tenants')
    .set({ profile: '{}', profile_updated_at: null, profile_updated_by: null })
    .execute();
  await db
    .updateTable('entities')
    .set({ profile: '{}', profile_updated_at: null, profile_updated_by: null })
    .execute();
}
