import type { Kysely } from 'kysely';

/**
 * One versioned schema change. `className` is the module's stable name, shown on the Database
 * Migrations screen (spec part 2: Version, Description, Class Name).
 */
export interface Migration {
  version: number;
  description: string;
  className: string;
  // The database type is deliberately loose: a migration runs against whatever schema existed
  // before it, not against today's Database type.
  up(db: Kysely<unknown>): Promise<void>;
}
