import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { EventSubscription, EventWorker, RecordedEvent } from '../../outbox/worker.ts';

/**
 * A country's risk from its latest FATF report (docs/fatf-import.md, "Country risk"), the FATF's
 * own prioritisation criteria for its International Co-operation Review Group:
 *
 * - High: 20 or more of the 40 Recommendations rated PC or NC, or 7 or more of the 11 Immediate
 *   Outcomes rated ME or LE with at least 4 of them LE.
 * - Medium: 10 or more Recommendations rated PC or NC, or 5 or more Immediate Outcomes rated ME
 *   or LE.
 * - Low: otherwise.
 *
 * A country's latest report is its rating with the latest report date.
 */
export type CountryRisk = 'High' | 'Medium' | 'Low';

export function riskOfRatings(ratings: {
  effectiveness: Record<string, string>;
  compliance: Record<string, string>;
}): CountryRisk {
  const count = (values: Record<string, string>, codes: readonly string[]) =>
    Object.values(values).filter((value) => codes.includes(value)).length;
  const weakCompliance = count(ratings.compliance, ['PC', 'NC']);
  const weakEffectiveness = count(ratings.effectiveness, ['ME', 'LE']);
  const lowEffectiveness = count(ratings.effectiveness, ['LE']);
  if (weakCompliance >= 20 || (weakEffectiveness >= 7 && lowEffectiveness >= 4)) return 'High';
  if (weakCompliance >= 10 || weakEffectiveness >= 5) return 'Medium';
  return 'Low';
}

/** The worker that keeps countries.cached_risk after each completed ratings import. */
export const COUNTRY_RISK: EventSubscription = {
  name: 'country-risk',
  subscribesTo: ['FatfRatingsImported'],
};

/** Recomputes the risk of the countries an import rated, in the transaction that marks it done. */
export function createCountryRiskWorker(): EventWorker {
  return {
    ...COUNTRY_RISK,
    delivery: 'in-transaction',
    async handle(event, trx) {
      await updateCountryRisk(trx, countryIdsOf(event));
    },
  };
}

function countryIdsOf(event: RecordedEvent): number[] {
  const ids = event.metadata.countryIds;
  return Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id)) : [];
}

/** cached_risk and cached_risk_at of `countryIds` from their latest ratings. */
export async function updateCountryRisk(
  db: Kysely<Database>,
  countryIds: readonly number[],
): Promise<void> {
  if (countryIds.length === 0) return;
  const latest = await db
    .selectFrom('fatf_ratings')
    .distinctOn('country_id')
    .select(['country_id', 'effectiveness', 'compliance'])
    .where('country_id', 'in', [...countryIds])
    .orderBy('country_id')
    .orderBy('report_date', 'desc')
    .orderBy('updated_at', 'desc')
    .execute();
  const risks = latest.map((row) => ({ id: row.country_id, risk: riskOfRatings(row) }));
  if (risks.length === 0) return;
  // The date says when the risk was last computed, also when it did not change.
  await sql`
    update countries set cached_risk = input.risk, cached_risk_at = now()
    from jsonb_to_recordset(${JSON.stringify(risks)}::jsonb) as input(id integer, risk text)
    where countries.id = input.id
  `.execute(db);
}
