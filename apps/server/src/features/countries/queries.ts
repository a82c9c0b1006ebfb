import type { Country, CountryChoice, ExportFormat } from '@console/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { CountriesTable, Database } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';

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

/** The countries in the list's order: by sequence (unset last), then ISO numeric code. */
const orderedCountries = (db: Kysely<Database>) =>
  db
    .selectFrom('countries')
    .orderBy('sequence', (order) => order.asc().nullsLast())
    .orderBy('id');

/** GET api/countries as staff: every country. */
export async function listCountries(db: Kysely<Database>): Promise<Country[]> {
  const rows = await orderedCountries(db).selectAll().execute();
  return rows.map(toCountry);
}

/** GET api/countries as a tenant user: every country as a choice of the profile forms. */
export function listCountryChoices(db: Kysely<Database>): Promise<CountryChoice[]> {
  return orderedCountries(db).select(['id', 'name as countryName']).execute();
}

/** GET api/countries/export: every country, in the list's order, with the list's fields. */
export function countriesExport(
  db: Kysely<Database>,
  format: ExportFormat,
): ListExport<Selectable<CountriesTable>> {
  return {
    name: 'countries',
    format,
    db,
    query: orderedCountries(db).selectAll(),
    columns: [
      { header: 'ID', value: (row) => row.id },
      { header: 'Country Name', value: (row) => row.name },
      { header: 'Alpha-2 Code', value: (row) => row.alpha2 },
      { header: 'Alpha-3 Code', value: (row) => row.alpha3 },
      { header: 'Sequence', value: (row) => row.sequence },
      { header: 'Valid From', value: (row) => row.valid_from?.toISOString() ?? null },
      { header: 'Valid To', value: (row) => row.valid_to?.toISOString() ?? null },
      { header: 'Risk', value: (row) => row.cached_risk },
      { header: 'Risk Updated At', value: (row) => row.cached_risk_at?.toISOString() ?? null },
    ],
  };
}
