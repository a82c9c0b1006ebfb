import type {
  ExportFormat,
  FieldPermissionRole,
  FormField,
  FormFieldType,
  FormFieldWrite,
} from '@console/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, FormFieldsTable } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';

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

/** GET /svc/formauthoring/allfields/export: every field, in the list's order, with its settings. */
export function formFieldsExport(
  db: Kysely<Database>,
  format: ExportFormat,
): ListExport<Selectable<FormFieldsTable>> {
  type Row = Selectable<FormFieldsTable>;
  const list = (value: (row: Row) => readonly string[]) => (row: Row) => value(row).join(', ');
  return {
    name: 'form-fields',
    format,
    db,
    query: db.selectFrom('form_fields').selectAll().orderBy('id'),
    columns: [
      { header: 'ID', value: (row) => row.id },
      { header: 'Storage Name', value: (row) => row.name },
      { header: 'Display Name', value: (row) => row.display_name },
      { header: 'Type', value: (row) => row.type },
      { header: 'Section', value: (row) => row.section },
      { header: 'Order', value: (row) => row.field_order },
      { header: 'UI Group', value: (row) => row.ui_group },
      { header: 'Required', value: (row) => row.required },
      { header: 'Validation Error Message', value: (row) => row.validation_error_message },
      { header: 'Max Length', value: (row) => row.max_length },
      { header: 'Pattern', value: (row) => row.pattern },
      { header: 'Options', value: list((row) => row.options) },
      { header: 'Require Fields', value: list((row) => row.require_fields) },
      { header: 'Alias For', value: (row) => row.alias_for },
      { header: 'Note', value: (row) => row.note },
      { header: 'Print', value: (row) => row.print },
      { header: 'Print Label', value: (row) => row.print_label },
      { header: 'Print Sequence', value: (row) => row.print_sequence },
      { header: 'View Permissions', value: list((row) => row.view_permissions) },
      { header: 'Edit Permissions', value: list((row) => row.edit_permissions) },
      { header: 'Tags', value: list((row) => row.tags) },
      { header: 'API References', value: (row) => JSON.stringify(row.api_references) },
      {
        header: 'Conditional Requirements',
        value: (row) => JSON.stringify(row.conditional_requirements),
      },
      { header: 'Created At', value: (row) => row.created_at.toISOString() },
      { header: 'Updated At', value: (row) => row.updated_at.toISOString() },
    ],
  };
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
