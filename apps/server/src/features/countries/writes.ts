import type { ImportResult, ParsedCountryImportRecord } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { recordEvent } from '../../outbox/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { toCountry } from './queries.ts';
import { FOREIGN_KEY_VIOLATION, translateViolations, UNIQUE_VIOLATION } from '../../db/errors.ts';

/**
 * Every write of countries. Each runs in one transaction and knows its actor, and records its
 * domain event in that transaction (outbox/outbox.ts): the event exists exactly when the write
 * does.
 */

const IN_USE_BY_TENANTS = (name: string) =>
  `Cannot delete country ${name} because it is currently being used by existing tenants. Please reassign or remove the tenants first.`;

/** DELETE api/countries/{id}: 404 when unknown, 409 while a tenant is domiciled there. */
export async function deleteCountry(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: number,
): Promise<void> {
  const inUse = () => conflict(IN_USE_BY_TENANTS(String(id)));
  await translateViolations({ [FOREIGN_KEY_VIOLATION]: inUse }, () =>
    db.transaction().execute(async (trx) => {
      // FOR UPDATE conflicts with the key-share lock a tenant insert takes on its country: no
      // tenant can start using the country between the check and the delete.
      const country = await trx
        .selectFrom('countries')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!country) throw notFound(`Country ${id} not found.`);
      const { tenants } = await trx
        .selectFrom('tenants')
        .select((eb) => eb.fn.countAll<number>().as('tenants'))
        .where('domicile_country_id', '=', id)
        .executeTakeFirstOrThrow();
      if (tenants > 0) throw conflict(IN_USE_BY_TENANTS(country.name), { tenants });
      await trx.deleteFrom('countries').where('id', '=', id).execute();
      await recordEvent(trx, {
        eventName: 'CountryDeleted',
        metadata: {
          actor: actor.email,
          action: 'delete',
          countryId: id,
          before: toCountry(country),
        },
      });
    }),
  );
}

/**
 * POST api/countries/import: one upsert by id of every record, all or nothing. A record that
 * matches its row (codes and name) is not written, so `count` is the number of countries added or
 * changed and a second import of the same file writes nothing. Other columns (sequence, validity,
 * risk) are kept. A record whose alpha-2 or alpha-3 code belongs to another country is a conflict.
 */
export async function importCountries(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  records: readonly ParsedCountryImportRecord[],
): Promise<ImportResult> {
  if (records.length === 0) return { count: 0 };
  // Another import took a code after our statement looked.
  const codeTaken = () =>
    conflict('An alpha-2 or alpha-3 code of the file is already used by another country.');
  return translateViolations({ [UNIQUE_VIOLATION]: codeTaken }, () =>
    db.transaction().execute(async (trx) => {
      const { count, taken } = await upsertUnlessCodeTaken(trx, actor, records);
      if (taken) throw codeInUse(records, taken);
      await recordEvent(trx, {
        eventName: 'CountriesImported',
        metadata: { actor: actor.email, action: 'import', count, records: records.length },
      });
      return { count };
    }),
  );
}

/** A code of record `position` (0-based) that country `holderId` already has. */
interface TakenCode {
  position: number;
  field: 'alpha2' | 'alpha3';
  holderId: number;
  holderName: string;
}

/**
 * The import's work in one statement, since a round trip costs more than the work itself: the
 * records travel as one JSON parameter; if another country holds a code of the file, the first
 * such code (in file order, alpha-2 before alpha-3) is answered and nothing is written; otherwise
 * every record that differs from its row is upserted and counted.
 */
async function upsertUnlessCodeTaken(
  trx: Kysely<Database>,
  actor: AuthenticatedUser,
  records: readonly ParsedCountryImportRecord[],
): Promise<{ count: number; taken: TakenCode | null }> {
  const input = records.map(({ id, alpha2, alpha3, name }) => ({ id, alpha2, alpha3, name }));
  const { rows } = await sql<{ count: number; taken: TakenCode | null }>`
    with input as (
      select * from rows from (
        jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
          as (id integer, alpha2 text, alpha3 text, name text)
      ) with ordinality as input(id, alpha2, alpha3, name, position)
    ),
    taken as (
      select
        input.position - 1 as "position",
        case when holder.alpha2 = input.alpha2 then 'alpha2' else 'alpha3' end as field,
        holder.id as "holderId",
        holder.name as "holderName"
      from input
      join countries holder
        on (holder.alpha2 = input.alpha2 or holder.alpha3 = input.alpha3)
        and holder.id <> input.id
      order by input.position, field
      limit 1
    ),
    written as (
      insert into countries (id, alpha2, alpha3, name, created_by, updated_by, updated_at)
      select id, alpha2, alpha3, name, ${actor.email}, ${actor.email}, now()
      from input
      where not exists (select from taken)
      on conflict (id) do update set
        alpha2 = excluded.alpha2,
        alpha3 = excluded.alpha3,
        name = excluded.name,
        updated_by = excluded.updated_by,
        updated_at = now()
      where (countries.alpha2, countries.alpha3, countries.name)
        is distinct from (excluded.alpha2, excluded.alpha3, excluded.name)
      returning 1
    )
    select
      (select count(*) from written)::integer as count,
      (select row_to_json(taken) from taken) as taken
  `.execute(trx);
  const [result] = rows;
  if (!result) throw new Error('The countries upsert answered no row');
  return result;
}

/** 409 naming the record whose code another country already has. */
function codeInUse(records: readonly ParsedCountryImportRecord[], taken: TakenCode) {
  const { position, field, holderId, holderName } = taken;
  return conflict(
    `Record at index ${position}: ${field} ${records[position]?.[field]} is already used by country ${holderId} (${holderName})`,
    { errors: [{ path: `${position}.${field}`, message: `Already used by country ${holderId}` }] },
  );
}
