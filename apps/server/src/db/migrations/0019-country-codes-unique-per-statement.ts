import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * A country's alpha-2 and alpha-3 codes stay unique, now checked at the end of each statement
 * (DEFERRABLE INITIALLY IMMEDIATE) rather than row by row. A countries import is one statement,
 * so what is refused is a result in which two countries share a code, whatever the order of the
 * file: codes can move or be swapped between countries in one import, and an import needs no
 * look at other countries' codes before it writes (features/countries/writes.ts).
 *
 * The primary key stays checked row by row: it is the import's ON CONFLICT arbiter, which
 * PostgreSQL requires to be immediate. No statement may use these two constraints as arbiters
 * (an ON CONFLICT without target does), which is why the seed names `id` (db/seed/countries.ts).
 */
export const CountryCodesUniquePerStatement: Migration = {
  version: 19,
  description: "Countries' alpha-2 and alpha-3 codes are unique at the end of each statement",
  className: 'CountryCodesUniquePerStatement',
  async up(db) {
    await sql`
      alter table countries
        drop constraint countries_alpha2_key,
        add constraint countries_alpha2_key unique (alpha2) deferrable initially immediate,
        drop constraint countries_alpha3_key,
        add constraint countries_alpha3_key unique (alpha3) deferrable initially immediate
    `.execute(db);
  },
};
