import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * The ID token of a session's sign-in, kept with the session for sign-out's `id_token_hint`
 * (RP-initiated logout, docs/security.md). It was a cookie, which holds 4 KB: Entra ID's tokens
 * with many group claims are longer, and their sign-out then named no account. The row goes
 * when the session ends or expires. Null for the sessions of an older server.
 */
export const SessionLogoutHints: Migration = {
  version: 24,
  description: "The ID token of each session's sign-in, for the hint of its sign-out",
  className: 'SessionLogoutHints',
  async up(db) {
    await sql`alter table sessions add column id_token_hint text`.execute(db);
  },
};
