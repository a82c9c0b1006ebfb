import type {
  FieldPermissionRole,
  FormField,
  FormFieldType,
  FormFieldWrite,
} from '@console/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, FormFieldsTable } from '../../db/schema.ts';

/** A row of form_fields as the API answers it (spec part 2, "Form field"). */
export function toFormField(row: Selectable<FormFieldsTable>): FormField {
  return {
    id: row.id,
    name: row.name,
    displayName: row.display_name,
    // The table's check constraint holds the type and the roles to the contract's values.
    type: row.type as FormFieldType,
    section: row.section,
    order: row.field_order,
    note: row.note,
    required: row.required,
    validationErrorMessage: row.validation_error_message,
    maxLength: row.max_length,
    pattern: row.pattern,
    printLabel: row.print_label,
    requireFields: row.require_fields,
    options: row.options,
    aliasFor: row.alias_for,
    print: row.print,
    printSequence: row.print_sequence,
    viewPermissions: row.view_permissions as FieldPermissionRole[],
    editPermissions: row.edit_permissions as FieldPermissionRole[],
    uiGroup: row.ui_group,
    apiReferences: row.api_references,
    tags: row.tags,
    conditionalRequirements: row.conditional_requirements,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The stored columns of a field as the API writes it (not its id, not the stamps). */
export function formFieldColumns(field: FormFieldWrite) {
  return {
    name: field.name,
    display_name: field.displayName,
    type: field.type,
    section: field.section,
    field_order: field.order,
    note: field.note,
    required: field.required,
    validation_error_message: field.validationErrorMessage,
    max_length: field.maxLength,
    pattern: field.pattern,
    print_label: field.printLabel,
    require_fields: field.requireFields,
    options: field.options,
    alias_for: field.aliasFor,
    print: field.print,
    print_sequence: field.printSequence,
    view_permissions: field.viewPermissions,
    edit_permissions: field.editPermissions,
    ui_group: field.uiGroup,
    api_references: JSON.stringify(field.apiReferences),
    tags: field.tags,
    conditional_requirements: JSON.stringify(field.conditionalRequirements),
  };
}

/** GET /svc/formauthoring/allfields: every field of the catalogue, by id. */
export async function listFormFields(db: Kysely<Database>): Promise<FormField[]> {
  const rows = await db.selectFrom('form_fields').selectAll().orderBy('id').execute();
  return rows.map(toFormField);
}

/** The fields of `ids` that exist, in the order of `ids` (a form's fields). */
export async function formFieldsByIds(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<FormField[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('form_fields')
    .selectAll()
    .where('id', '=', sql<number>`any(${[...ids]}::integer[])`)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, toFormField(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
