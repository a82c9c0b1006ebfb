import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

// The `forms` table of migration 0006, typed here until the forms screens own it; then this moves
// to db/schema.ts and `withForms` goes away.

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface FormsTable {
  id: Generated<number>;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  ui_group_order: ColumnType<string[], string[] | undefined, string[]>;
  col_span_override: number | null;
  created_at: CreatedAt;
  created_by: string;
  updated_at: Timestamp;
  updated_by: string;
}

export type DatabaseWithForms = Database & { forms: FormsTable };

/** The same connection (or transaction), seeing the forms table. */
export function withForms(db: Kysely<Database>): Kysely<DatabaseWithForms> {
  return db.withTables<{ forms: FormsTable }>();
}
