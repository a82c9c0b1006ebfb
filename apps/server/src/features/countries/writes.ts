import type { ImportResult, ParsedCountryImportRecord } from '@console/contracts';
import { sql, type InsertObject, type Kysely } from 'kysely';
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

/** Rows per INSERT statement: far below PostgreSQL's 65,535 parameters per statement. */
const ROWS_PER_STATEMENT = 1000;

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
  // Another import took a code between our check and our write.
  const codeTaken = () =>
    conflict('An alpha-2 or alpha-3 code of the file is already used by another country.');
  return translateViolations({ [UNIQUE_VIOLATION]: codeTaken }, () =>
    db.transaction().execute(async (trx) => {
      await assertCodesAreFree(trx, records);
      let count = 0;
      for (let start = 0; start < records.length; start += ROWS_PER_STATEMENT) {
        const rows: InsertObject<Database, 'countries'>[] = records
          .slice(start, start + ROWS_PER_STATEMENT)
          .map((record) => ({
            id: record.id,
            alpha2: record.alpha2,
            alpha3: record.alpha3,
            name: record.name,
            created_by: actor.email,
            updated_by: actor.email,
            updated_at: sql<Date>`now()`,
          }));
        const result = await trx
          .insertInto('countries')
          .values(rows)
          .onConflict((onConflict) =>
            onConflict
              .column('id')
              .doUpdateSet((eb) => ({
                alpha2: eb.ref('excluded.alpha2'),
                alpha3: eb.ref('excluded.alpha3'),
                name: eb.ref('excluded.name'),
                updated_by: eb.ref('excluded.updated_by'),
                updated_at: sql<Date>`now()`,
              }))
              .where(
                sql<boolean>`(countries.alpha2, countries.alpha3, countries.name) is distinct from (excluded.alpha2, excluded.alpha3, excluded.name)`,
              ),
          )
          .executeTakeFirst();
        count += Number(result.numInsertedOrUpdatedRows ?? 0n);
      }
      await recordEvent(trx, {
        eventName: 'CountriesImported',
        metadata: { actor: actor.email, action: 'import', count, records: records.length },
      });
      return { count };
    }),
  );
}

/** 409 naming the first record whose alpha-2 or alpha-3 code another country already has. */
async function assertCodesAreFree(
  trx: Kysely<Database>,
  records: readonly ParsedCountryImportRecord[],
): Promise<void> {
  const holders = await trx
    .selectFrom('countries')
    .select(['id', 'alpha2', 'alpha3', 'name'])
    .where((eb) =>
      eb.or([
        eb(
          'alpha2',
          'in',
          records.map((record) => record.alpha2),
        ),
        eb(
          'alpha3',
          'in',
          records.map((record) => record.alpha3),
        ),
      ]),
    )
    .execute();
  const byAlpha2 = new Map(holders.map((country) => [country.alpha2, country]));
  const byAlpha3 = new Map(holders.map((country) => [country.alpha3, country]));
  records.forEach((record, index) => {
    for (const [field, holder] of [
      ['alpha2', byAlpha2.get(record.alpha2)],
      ['alpha3', byAlpha3.get(record.alpha3)],
    ] as const) {
      if (holder && holder.id !== record.id) {
        throw conflict(
          `Record at index ${index}: ${field} ${record[field]} is already used by country ${holder.id} (${holder.name})`,
          {
            errors: [
              { path: `${index}.${field}`, message: `Already used by country ${holder.id}` },
            ],
          },
        );
      }
    }
  });
}
