import type { ExportFormat, FormDefinition, FormListItem } from '@console/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, FormsTable } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';
import { formFieldsByIds } from '../form-fields/queries.ts';

/** GET /svc/formauthoring/list: every form, by name. */
export async function listForms(db: Kysely<Database>): Promise<FormListItem[]> {
  const rows = await db
    .selectFrom('forms')
    .select(['id', 'name', 'created_at', 'updated_at'])
    .orderBy(sql`name collate "C"`)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }));
}

/** GET /svc/formauthoring/list/export: every form, in the list's order, with its settings. */
export function formsExport(
  db: Kysely<Database>,
  format: ExportFormat,
): ListExport<Selectable<FormsTable>> {
  return {
    name: 'forms',
    format,
    db,
    query: db
      .selectFrom('forms')
      .selectAll()
      .orderBy(sql`name collate "C"`)
      .orderBy('id'),
    columns: [
      { header: 'ID', value: (row) => row.id },
      { header: 'Name', value: (row) => row.name },
      { header: 'Description', value: (row) => row.description },
      { header: 'Field IDs', value: (row) => row.field_ids.join(', ') },
      { header: 'UI Group Order', value: (row) => row.ui_group_order.join(', ') },
      { header: 'Column Span Override', value: (row) => row.col_span_override },
      { header: 'Created At', value: (row) => row.created_at.toISOString() },
      { header: 'Updated At', value: (row) => row.updated_at.toISOString() },
    ],
  };
}

/** How a call names a form: by name (any letter case, names being unique so) or by id. */
export type FormKey = { name: string } | { id: number };

/**
 * The definition of one form with the fields it references that exist (`field_definitions`, in
 * the form's order), or undefined when there is no such form. Both reads see one snapshot when
 * `db` is a transaction; callers that render or validate read it once per request.
 */
export async function findFormDefinition(
  db: Kysely<Database>,
  key: FormKey,
): Promise<FormDefinition | undefined> {
  const row = await db
    .selectFrom('forms')
    .selectAll()
    .$call((query) =>
      'id' in key
        ? query.where('id', '=', key.id)
        : query.where(sql`lower(name)`, '=', key.name.toLowerCase()),
    )
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...toStoredDefinition(row),
    field_definitions: await formFieldsByIds(db, row.field_ids),
  };
}

/** A row of forms as the API shows it, without the definitions of its fields. */
export function toStoredDefinition(
  row: Selectable<FormsTable>,
): Omit<FormDefinition, 'field_definitions'> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    fields: row.field_ids,
    uiGroupOrder: row.ui_group_order,
    colSpanOverride: row.col_span_override,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
