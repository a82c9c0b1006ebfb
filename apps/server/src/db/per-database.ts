import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** One `T` per database handle (Kysely instance), as `of` finds it and `use` replaces it. */
export interface PerDatabase<T> {
  /** The database's own, made by `make` on first use. */
  of(db: Kysely<Database>): T;
  /** Uses `value` for `db` from now on (tests: other options; a transaction sharing its database's). */
  use(db: Kysely<Database>, value: T): void;
}

/** What each database keeps in memory beside it (page anchors), forgotten with the handle. */
export function perDatabase<T>(make: (db: Kysely<Database>) => T): PerDatabase<T> {
  const kept = new WeakMap<Kysely<Database>, T>();
  return {
    of(db) {
      let value = kept.get(db);
      if (value === undefined) {
        value = make(db);
        kept.set(db, value);
      }
      return value;
    },
    use(db, value) {
      kept.set(db, value);
    },
  };
}
