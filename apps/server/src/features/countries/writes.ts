import type { ImportResult, ParsedCountryImportRecord } from '@console/contracts';
import { CompiledQuery, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import { preparedStatement } from '../../db/prepared-statements.ts';
import type { Database } from '../../db/schema.ts';
import { eventRecordingCtes, prepareEvents, recordEvent } from '../../outbox/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { toCountry } from './queries.ts';
import { FOREIGN_KEY_VIOLATION, translateViolations, UNIQUE_VIOLATION } from '../../db/errors.ts';

/**
 * Every write of countries. Each knows its actor and records its domain event in its own
 * transaction or statement (outbox/outbox.ts): the event exists exactly when the write does.
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
          target: { type: 'Country', id: String(id), name: country.name },
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
 * risk) are kept. An import after which two countries would share an alpha-2 or alpha-3 code is a
 * conflict; codes may move between countries of the file, in any order (migration 19).
 */
export async function importCountries(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  records: readonly ParsedCountryImportRecord[],
): Promise<ImportResult> {
  if (records.length === 0) return { count: 0 };
  const input = recordsJson(records);
  const codeTaken = async () => {
    const taken = await findCodeTaken(db, input);
    // Otherwise another import took a code of the file and then gave it up again.
    return taken ? codeInUse(records, taken) : conflict(CODE_TAKEN);
  };
  return translateViolations({ [UNIQUE_VIOLATION]: codeTaken }, async () => ({
    count: await upsertWithEvent(db, actor, input, records.length),
  }));
}

const CODE_TAKEN = 'An alpha-2 or alpha-3 code of the file is already used by another country.';

/** The records as the CTE `input (id, alpha2, alpha3, name, position)`, position from 1. */
function importInput(records: string): string {
  // char(2) and char(3) as the columns are, so that a comparison with them can use their index.
  return `input as (
    select * from rows from (
      jsonb_to_recordset(${records}) as (id integer, alpha2 char(2), alpha3 char(3), name text)
    ) with ordinality as input(id, alpha2, alpha3, name, position)
  )`;
}

/**
 * The import and its `CountriesImported` event in one statement, since a round trip costs more
 * than the work itself: the statement commits or fails as a whole, so it needs no transaction of
 * its own, and it is prepared (planning it took a fifth of its time). $1: the records as JSON,
 * $2: the actor's email, $3: the prepared event, whose `count` the statement sets. A record that
 * differs from its row is upserted and counted. A code that two countries would share afterwards
 * fails the statement (unique violation), and nothing is written.
 */
const IMPORT_WITH_EVENT = preparedStatement(
  'countries_import',
  `with ${importInput('$1::jsonb')},
  written as (
    insert into countries (id, alpha2, alpha3, name, created_by, updated_by, updated_at)
    select id, alpha2, alpha3, name, $2, $2, now()
    from input
    on conflict (id) do update set
      alpha2 = excluded.alpha2,
      alpha3 = excluded.alpha3,
      name = excluded.name,
      updated_by = excluded.updated_by,
      updated_at = now()
    where (countries.alpha2, countries.alpha3, countries.name)
      is distinct from (excluded.alpha2, excluded.alpha3, excluded.name)
    returning id, (xmax = 0) as created
  ),
  written_count as (select count(*)::integer as count from written),
  written_ids as (
    select
      coalesce(jsonb_agg(id order by id) filter (where created), '[]') as created,
      coalesce(jsonb_agg(id order by id) filter (where not created), '[]') as changed
    from written
  ),
  ${eventRecordingCtes(`(
    select jsonb_build_array(jsonb_set(
      jsonb_set($3::jsonb, '{metadata,count}', to_jsonb(count)),
      '{metadata,after}',
      jsonb_build_object('count', count, 'records', $3::jsonb #> '{metadata,records}',
        'created', written_ids.created, 'changed', written_ids.changed)
    ))
    from written_count, written_ids
  )`)}
  select count from written_count`,
);

/** IMPORT_WITH_EVENT of `input` (recordsJson of `records` records); answers the count written. */
async function upsertWithEvent(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  input: string,
  records: number,
): Promise<number> {
  const [event] = prepareEvents([
    {
      eventName: 'CountriesImported',
      // The statement sets the count and the ids created and changed (metadata.after).
      metadata: {
        actor: actor.email,
        action: 'import',
        count: 0,
        records,
        target: { type: 'Country', name: 'Countries import' },
      },
    },
  ]);
  const { rows } = await db.executeQuery<{ count: number }>(
    IMPORT_WITH_EVENT([input, actor.email, JSON.stringify(event)]),
  );
  const [result] = rows;
  if (!result) throw new Error('The countries upsert answered no row');
  return result.count;
}

/** What the statements read of the records, as JSON. */
function recordsJson(records: readonly ParsedCountryImportRecord[]): string {
  return JSON.stringify(
    records.map(({ id, alpha2, alpha3, name }) => ({ id, alpha2, alpha3, name })),
  );
}

/** A code of record `position` (0-based) that country `holderId` has. */
interface TakenCode {
  position: number;
  field: 'alpha2' | 'alpha3';
  holderId: number;
  holderName: string;
}

/**
 * After a failed import of `input` (recordsJson), the clash to name: the first code of the file (in file order, alpha-2
 * before alpha-3) held by a country the file does not mention. Within the file codes are unique
 * (the contract refuses a repeat), and a country of the file takes its codes from the file, so
 * the import failed exactly when such a code exists, unless another import changed the countries
 * meanwhile (null).
 */
async function findCodeTaken(db: Kysely<Database>, input: string): Promise<TakenCode | null> {
  const { rows } = await db.executeQuery<TakenCode>(
    CompiledQuery.raw(
      `with ${importInput('$1::jsonb')}
      select
        input.position - 1 as "position",
        case when holder.alpha2 = input.alpha2 then 'alpha2' else 'alpha3' end as field,
        holder.id as "holderId",
        holder.name as "holderName"
      from input
      join countries holder on holder.alpha2 = input.alpha2 or holder.alpha3 = input.alpha3
      where not exists (select from input mentioned where mentioned.id = holder.id)
      order by input.position, field
      limit 1`,
      [input],
    ),
  );
  return rows[0] ?? null;
}

/** 409 naming the record whose code another country already has. */
function codeInUse(records: readonly ParsedCountryImportRecord[], taken: TakenCode) {
  const { position, field, holderId, holderName } = taken;
  return conflict(
    `Record at index ${position}: ${field} ${records[position]?.[field]} is already used by country ${holderId} (${holderName})`,
    { errors: [{ path: `${position}.${field}`, message: `Already used by country ${holderId}` }] },
  );
}
