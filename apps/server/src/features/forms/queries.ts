import type { FormListItem } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

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
