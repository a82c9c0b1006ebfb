import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * What several instances must share (docs/operations.md): rate-limit counters every instance
 * counts in, signing keys that retire (rotation with an overlap), and which claimed event records
 * a worker has begun, so that a crash charges an attempt only to work that began.
 */
export const SharedInstanceState: Migration = {
  version: 9,
  description: 'Shared rate-limit counters, signing key retirement, started event claims',
  className: 'SharedInstanceState',
  async up(db) {
    await sql`
      -- One fixed window per limit (scope: the route) and client; upserted atomically.
      create table rate_limit_counters (
        scope text not null,
        client_key text not null,
        hits integer not null,
        resets_at timestamptz not null,
        primary key (scope, client_key)
      );
      create index rate_limit_counters_resets_at on rate_limit_counters (resets_at);

      -- Set when a newer key took over signing; the key still verifies the tokens it signed
      -- until they expire.
      alter table signing_keys add column retired_at timestamptz;

      -- True from a claim until the worker begins the record's work: a claim that expires while
      -- still unstarted is not charged an attempt.
      alter table processed_events add column unstarted boolean not null default false;
    `.execute(db);
  },
};
