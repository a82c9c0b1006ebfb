import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * The entity lists' rows (migration 16) are kept as ASCII-only JSON: every character beyond
 * U+007F is written as its JSON escape (`\u0144`, a surrogate pair beyond U+FFFF), which any JSON
 * reader turns back into the same text. The server reads a page of these rows as one JavaScript
 * string and writes it out again; a single character beyond U+00FF in a page (a Polish or Czech
 * name, Cyrillic, an emoji) made V8 keep the whole page as two bytes per character, which cost
 * the server about a third more per request than a page of the same size in ASCII. An ASCII page
 * is also decoded and encoded on V8's fastest path.
 *
 * The four kept columns are added again, each the escape of what migration 16's functions write:
 * those functions keep their rules. Like migration 16, this rewrites `tenants`, `entities` and
 * `entity_users` under an exclusive lock (docs/operations.md).
 */
export const EntityListRowsAscii: Migration = {
  version: 17,
  description: "Entities' and entity users' list rows are kept as ASCII-only JSON",
  className: 'EntityListRowsAscii',
  async up(db) {
    await sql`
      -- JSON text with every character beyond U+007F written as its \\u escape. Non-ASCII
      -- characters stand only inside JSON strings, where an escape means the same character.
      -- Most texts are ASCII (as many bytes as characters) and come back as they are; otherwise
      -- each distinct character is replaced once.
      create function console_json_ascii(value text) returns text
        language plpgsql immutable strict parallel safe
        as $$
        declare
          found_character text;
          code integer;
        begin
          if octet_length(value) = length(value) then
            return value;
          end if;
          for found_character in
            select distinct matched[1] from regexp_matches(value, '([^\\x01-\\x7f])', 'g') as matched
          loop
            code := ascii(found_character);
            value := replace(value, found_character, case when code < 65536
              then '\\u' || lpad(to_hex(code), 4, '0')
              -- A surrogate pair, as JSON writes a character beyond the Basic Multilingual Plane.
              else '\\u' || to_hex(55232 + (code >> 10)) || '\\u' || to_hex(56320 + (code & 1023))
            end);
          end loop;
          return value;
        end
        $$;

      alter table tenants
        drop column entity_row_head,
        add column entity_row_head text not null
          generated always as (console_json_ascii(console_json_head('tenantName', company_name))) stored;

      alter table entities
        drop column list_row_rest,
        drop column user_row_head,
        add column list_row_rest text not null
          generated always as (console_json_ascii(
            console_entity_row_rest(party_entity_id, tenant_id, names, country))) stored,
        add column user_row_head text not null
          generated always as (console_json_ascii(console_json_head('entityName',
            console_entity_display_name(names, party_entity_id)))) stored;

      alter table entity_users
        drop column list_row_rest,
        add column list_row_rest text not null
          generated always as (console_json_ascii(console_entity_user_row_rest(party_user_id,
            party_entity_id, tenant_id, type, state, email, metadata, keys))) stored;
    `.execute(db);
  },
};
