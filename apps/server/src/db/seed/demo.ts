import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** Demo data for embedded mode. Idempotent: running it twice changes nothing. */
export async function seedDemoData(_db: Kysely<Database>): Promise<void> {
  // Filled in by the seed work: countries, document types, demo tenants, entities, events.
}
