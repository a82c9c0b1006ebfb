import type { Country } from '@console/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { CountriesTable, Database } from '../../db/schema.ts';

export function toCountry(row: Selectable<CountriesTable>): Country {
  return {
    id: row.id,
    countryName: row.name,
    alpha2Code: row.alpha2,
    alpha3Code: row.alpha3,
    sequence: row.sequence,
    validFrom: row.valid_from?.toISOString() ?? null,
    validTo: row.valid_to?.toISOString() ?? null,
    cachedRisk: row.cached_risk,
    cachedRiskAt: row.cached_risk_at?.toISOString() ?? null,
  };
}

/** GET api/countries: every country, by sequence (unset last), then ISO numeric code. */
export async function listCountries(db: Kysely<Database>): Promise<Country[]> {
  const rows = await db
    .selectFrom('countries')
    .selectAll()
    .orderBy('sequence', (order) => order.asc().nullsLast())
    .orderBy('id')
    .execute();
  return rows.map(toCountry);
}
