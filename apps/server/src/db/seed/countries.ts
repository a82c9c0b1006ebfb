import isoCountries from 'i18n-iso-countries';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { seedStamps } from './common.ts';

export interface IsoCountry {
  /** ISO 3166-1 numeric code. */
  id: number;
  alpha2: string;
  alpha3: string;
  name: string;
}

/**
 * Every ISO 3166-1 country from the maintained i18n-iso-countries package (249 entries), with its
 * English name, ordered by numeric code. Codes the standard leaves to users (alpha-2 XA-XZ, numeric
 * 900-999, such as the package's Kosovo XK/XKK/983) are not ISO 3166-1 and are left out.
 */
export function isoCountryList(): IsoCountry[] {
  const names = isoCountries.getNames('en', { select: 'official' });
  return Object.entries(isoCountries.getNumericCodes())
    .map(([numeric, alpha2]) => ({
      id: Number(numeric),
      alpha2,
      alpha3: isoCountries.alpha2ToAlpha3(alpha2) ?? '',
      name: names[alpha2] ?? '',
    }))
    .filter((country) => country.id < 900 && !country.alpha2.startsWith('X'))
    .map((country) => {
      if (!country.alpha3 || !country.name) {
        throw new Error(`i18n-iso-countries has no alpha-3 code or name for ${country.alpha2}`);
      }
      return country;
    })
    .sort((a, b) => a.id - b.id);
}

/**
 * Inserts the ISO countries that are missing; existing rows (maybe edited) are left alone. A
 * country whose id or code is taken (an import may have given a code to another id) is skipped:
 * the codes' unique constraints are checked per statement (migration 19), so they cannot be ON
 * CONFLICT arbiters and the check is written out.
 */
export async function seedCountries(db: Kysely<Database>, now = new Date()): Promise<number> {
  const rows = isoCountryList().map((country) => ({ ...country, ...seedStamps(now) }));
  // jsonb_populate_recordset reads each row as a countries row: the columns' own types.
  const result = await sql`
    insert into countries (id, alpha2, alpha3, name, created_at, created_by, updated_at, updated_by)
    select iso.id, iso.alpha2, iso.alpha3, iso.name,
      iso.created_at, iso.created_by, iso.updated_at, iso.updated_by
    from jsonb_populate_recordset(null::countries, ${JSON.stringify(rows)}::jsonb) as iso
    where not exists (
      select from countries held where held.alpha2 = iso.alpha2 or held.alpha3 = iso.alpha3
    )
    on conflict (id) do nothing
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
