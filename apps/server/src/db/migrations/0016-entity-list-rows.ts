import { sql } from 'kysely';
import type { Migration } from './migration.ts';

/**
 * Every entity and entity user keeps its row of the portal lists as JSON text, written by
 * PostgreSQL whenever the row is written (stored generated columns): a page of 100 is then the
 * concatenation of 100 texts, which the server sends as it is (features/entities/queries.ts).
 * Building the JSON of each row at every read took PostgreSQL more than half of a page's time,
 * and parsing rows into objects and writing them out again took the server more CPU than the
 * rest of the request (docs/architecture.md, "Speed").
 *
 * - `entities.list_row_rest`: the entity as GET api/Entity shows it, but for its first member,
 *   `tenantName`, which a renamed tenant changes: the page puts `tenants.entity_row_head`
 *   (`{"tenantName":"…"`) before it.
 * - `entity_users.list_row_rest`: the user as GET api/EntityUser shows it, but for its first
 *   member, `entityName`: the page puts the entity's `user_row_head` (`{"entityName":"…"`, the
 *   name being `entityDisplayName` of the entity: `names.entityName` trimmed as JavaScript trims,
 *   or the id) before it.
 *
 * The platform writes these rows and may store anything in the jsonb columns: only text is
 * shown (names, the three metadata names), and a key whose value is not text shows its JSON text.
 * features/entities/list-rows.test.ts checks these functions against the same rules in TypeScript.
 *
 * Adding a stored generated column rewrites the table under an exclusive lock (about two minutes
 * for 10^6 entities and 10^6 entity users, docs/operations.md). PostgreSQL does not recompute the columns when a function
 * is replaced: a migration that changes a rule must rewrite the column too.
 */
export const EntityListRows: Migration = {
  version: 16,
  description: 'Entities and entity users keep their list row as JSON',
  className: 'EntityListRows',
  async up(db) {
    await sql`
      -- The characters String.prototype.trim removes: ECMAScript WhiteSpace (tab, vertical tab,
      -- form feed, space, no-break space, the byte order mark, Unicode's space separators) and
      -- LineTerminator (line feed, carriage return, line and paragraph separators).
      create function console_js_trim(value text) returns text
        language sql immutable strict parallel safe
        return btrim(value, U&'\\0009\\000a\\000b\\000c\\000d\\0020\\00a0\\1680\\2000\\2001\\2002\\2003\\2004\\2005\\2006\\2007\\2008\\2009\\200a\\2028\\2029\\202f\\205f\\3000\\feff');

      create function console_entity_display_name(names jsonb, party_entity_id text) returns text
        language sql immutable parallel safe
        return coalesce(
          nullif(console_js_trim(case when jsonb_typeof(names #> '{names,entityName}') = 'string'
            then names #>> '{names,entityName}' end), ''),
          party_entity_id);

      -- The text values of a JSON object; {} for anything else.
      create function console_text_values(value jsonb) returns jsonb
        language sql immutable parallel safe
        return case when jsonb_typeof(value) = 'object' then coalesce(
          (select jsonb_object_agg(entry.key, entry.value) from jsonb_each(value) as entry
            where jsonb_typeof(entry.value) = 'string'),
          '{}') else '{}' end;

      -- Key name to value; a value that is not text as its JSON text; {} for a non-object.
      create function console_entity_user_keys(keys jsonb) returns jsonb
        language sql immutable parallel safe
        return case when jsonb_typeof(keys) = 'object' then coalesce(
          (select jsonb_object_agg(entry.key, case when jsonb_typeof(entry.value) = 'string'
              then entry.value else to_jsonb(entry.value::text) end)
            from jsonb_each(keys) as entry),
          '{}') else '{}' end;

      -- The spec's three names of an entity user, those that are text.
      create function console_entity_user_metadata(metadata jsonb) returns jsonb
        language sql immutable parallel safe
        return console_text_values(jsonb_build_object(
          'preferredName', metadata -> 'preferredName',
          'givenName', metadata -> 'givenName',
          'familyName', metadata -> 'familyName'));

      -- A list row is one text, its first member (the name another table holds, which can
      -- change without the row) followed by the rest of its members, kept on the row:
      -- '{"tenantName":"Acme"' || ',"partyEntityId" : "e1", …}'. A page then joins one head to
      -- each row, the cheapest concatenation there is.
      -- to_json and json_build_object are only stable (they could format any type); with these
      -- types their text never changes, so the functions that use them may say immutable.
      create function console_json_head(name text, value text) returns text
        language sql immutable strict parallel safe
        return '{' || to_json(name) || ':' || to_json(value);

      create function console_entity_row_rest(
        party_entity_id text, tenant_id integer, names jsonb, country text
      ) returns text
        language sql immutable parallel safe
        return ',' || substr(json_build_object(
          'partyEntityId', party_entity_id,
          'tenantId', tenant_id,
          'names', json_build_object('names', console_text_values(names -> 'names')),
          'country', country,
          'displayName', console_entity_display_name(names, party_entity_id))::text, 2);

      create function console_entity_user_row_rest(
        party_user_id text, party_entity_id text, tenant_id integer, type integer, state text,
        email text, metadata jsonb, keys jsonb
      ) returns text
        language sql immutable parallel safe
        return ',' || substr(json_build_object(
          'partyUserId', party_user_id,
          'partyEntityId', party_entity_id,
          'tenantId', tenant_id,
          'type', type,
          'state', state,
          'email', email,
          'metadata', console_entity_user_metadata(metadata),
          'keys', console_entity_user_keys(keys))::text, 2);

      alter table tenants
        add column entity_row_head text not null
          generated always as (console_json_head('tenantName', company_name)) stored;

      alter table entities
        add column list_row_rest text not null
          generated always as (console_entity_row_rest(party_entity_id, tenant_id, names, country)) stored,
        add column user_row_head text not null
          generated always as (console_json_head('entityName',
            console_entity_display_name(names, party_entity_id))) stored;

      alter table entity_users
        add column list_row_rest text not null
          generated always as (console_entity_user_row_rest(party_user_id, party_entity_id,
            tenant_id, type, state, email, metadata, keys)) stored;
    `.execute(db);
  },
};
