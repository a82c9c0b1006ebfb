import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import { list } from './common.ts';
import { seedCountries } from './countries.ts';
import { EVENT_WORKERS } from './demo-data.ts';
import { ensureDemoTenants, ensureTenant, type SeedTenant } from './tenants.ts';

/**
 * Load-test data: `n` entities, `n` entity users (user i belongs to entity i) and `n` events with
 * their per-worker processing rows, spread over the two demo tenants and three generated ones.
 *
 * Deterministic: the same n (and `now`) gives the same rows. Row i's ids and contents depend on i
 * alone, so a larger n adds rows to the ones there; only the events' timestamps depend on n (spread
 * evenly over the last 30 days, in id order). Ids are UUID-shaped and start with 5ca1ab1e, so
 * generated rows are easy to tell apart (and to delete: `where party_entity_id like '5ca1ab1e-%'`).
 *
 * Fast: PostgreSQL makes the rows itself, `insert ... select ... from generate_series(a, b)`, one
 * statement per batch, so nothing crosses the wire but the batch bounds. Idempotent: on conflict do nothing, and processing rows only for
 * the events a batch inserted. Each batch commits on its own; an interrupted run is completed by
 * running it again.
 */

export const SCALE_ID_PREFIX = '5ca1ab1e';

export const SCALE_TENANTS: readonly SeedTenant[] = [
  {
    companyName: 'Load Test Tenant 1',
    domicileCountryId: 276,
    namespaces: ['loadtest1'],
    users: [],
  },
  {
    companyName: 'Load Test Tenant 2',
    domicileCountryId: 250,
    namespaces: ['loadtest2'],
    users: [],
  },
  {
    companyName: 'Load Test Tenant 3',
    domicileCountryId: 702,
    namespaces: ['loadtest3'],
    users: [],
  },
];

export interface ScaleOptions {
  /** Rows per insert statement (default 50,000). */
  batchSize?: number;
  /** The moment the generated timestamps are relative to (default: now). */
  now?: Date;
  /** Called after each batch. */
  onProgress?: (progress: ScaleProgress) => void;
}

export interface ScaleProgress {
  table: 'entities' | 'entity_users' | 'events';
  done: number;
  total: number;
}

export interface ScaleSummary {
  entities: number;
  entityUsers: number;
  events: number;
  processedEvents: number;
  /** Every row written, tenants included. */
  rows: number;
  milliseconds: number;
}

const STEMS = list(`
  Northwind, Bluewater, Silverline, Crescent, Evergreen, Ironbridge, Summit, Oakridge, Brightstone,
  Harbourview, Redwood, Clearwater, Falcon, Meridian, Granite, Lighthouse, Sterling, Pinnacle,
  Westbrook, Kestrel, Alpenblick, Solana, Bellavista, Nordlys, Zuiderzee, Ipanema, Sakura
`);
const INDUSTRIES = list(`
  Logistics, Capital, Trading, Analytics, Pharmaceuticals, Foods, Energy, Payments, Marine,
  Software, Insurance, Biotech, Construction, Retail, Ventures, Consulting, Health, Freight
`);
const LEGAL_FORMS = list('Ltd, Inc., GmbH, SAS, B.V., S.L., AB, Pte. Ltd., S.p.A.');
const COUNTRIES = list(`
  US, GB, DE, FR, NL, ES, IT, IE, CA, SE, CH, SG, JP, AU, BR, MX, PL, AT, BE, DK, NO, FI, PT, IN,
  AE, ZA, HK, LU
`);
const GIVEN_NAMES = list(`
  James, Olivia, Lukas, Anna, Hugo, Camille, Lucía, Pablo, Giulia, Marco, Daan, Sanne, Erik, Astrid,
  Piotr, Zuzanna, João, Beatriz, Haruto, Yui, Priya, Samuel, Aisha, Chen
`);
const FAMILY_NAMES = list(`
  Smith, Johnson, Müller, Schmidt, Martin, Dubois, García, López, Rossi, Bianchi, de Jong, Visser,
  Andersson, Nielsen, Nowak, Kowalski, Silva, Costa, Sato, Tanaka, Patel, Okafor, Nguyen, Wright
`);
const EVENT_NAMES = list(`
  EntityUpdated, EntityUserCreated, EntityProfileSubmitted, EntityUserKeyCreated,
  EntityUserStateChanged, EntityCreated, EntityUserKeyDeleted, EntityUserInvited,
  TenantProfileSubmitted, TestEvent
`);
const STATES = list('active, active, active, active, active, invited, suspended');

/** `array[...]::text[]` of constants, one parameter per item. */
function textArray(items: readonly string[]): RawBuilder<string[]> {
  return sql`array[${sql.join(items)}]::text[]`;
}

/** 1-based pick from a SQL array by a bigint expression. */
function pick(items: readonly string[], index: RawBuilder<unknown>): RawBuilder<string> {
  return sql`(${textArray(items)})[1 + (${index}) % ${items.length}]`;
}

/**
 * The UUID-shaped id of generated row i of a kind: 5ca1ab1e-<i as 8 hex digits, split 4-4>-<16
 * hex digits of md5('scale:<kind>:<i>')>, e.g. 5ca1ab1e-0000-002a-9f3a-4c8d2e1b7a60. Ids grow
 * with i, so each batch appends to the right edge of the indexes instead of touching pages all
 * over them: with random UUIDs a million rows take about twice as long on PostgreSQL.
 */
function scaleId(kind: string): RawBuilder<string> {
  return sql`(${SCALE_ID_PREFIX}::text || '-' || left(lpad(to_hex(i), 8, '0'), 4) || '-'
    || right(lpad(to_hex(i), 8, '0'), 4) || '-' || overlay(right(md5(${`scale:${kind}:`}::text || i), 16)
    placing '-' from 5 for 0))`;
}

/** Row i's tenant: the tenants of `ids` in turn. */
function tenantOfRow(ids: readonly number[]): RawBuilder<number> {
  return sql<number>`(array[${sql.join(ids)}]::int[])[1 + i % ${ids.length}]`;
}

function timestampParam(moment: Date): RawBuilder<Date> {
  return sql<Date>`${moment.toISOString()}::timestamptz`;
}

export async function seedScale(
  db: Kysely<Database>,
  n: number,
  options: ScaleOptions = {},
): Promise<ScaleSummary> {
  if (!Number.isInteger(n) || n < 0) throw new Error(`seedScale needs a whole number, got ${n}`);
  const batchSize = options.batchSize ?? 50_000;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new Error('batchSize must be at least 1');
  const now = options.now ?? new Date();
  const started = performance.now();

  const tenants = await db.transaction().execute(async (trx) => {
    await seedCountries(trx, now);
    const demo = await ensureDemoTenants(trx, now);
    const generated = [];
    for (const tenant of SCALE_TENANTS) generated.push(await ensureTenant(trx, tenant, now));
    return {
      ids: [demo.ids.acme, demo.ids.globex, ...generated.map((tenant) => tenant.id)],
      inserted: demo.inserted + generated.filter((tenant) => tenant.created).length,
    };
  });
  const tenantOf = tenantOfRow(tenants.ids);
  const nowParam = timestampParam(now);

  const summary: ScaleSummary = {
    entities: 0,
    entityUsers: 0,
    events: 0,
    processedEvents: 0,
    rows: tenants.inserted,
    milliseconds: 0,
  };

  const batches = async (
    table: ScaleProgress['table'],
    write: (from: number, to: number) => Promise<void>,
  ) => {
    for (let from = 1; from <= n; from += batchSize) {
      const to = Math.min(n, from + batchSize - 1);
      await write(from, to);
      options.onProgress?.({ table, done: to, total: n });
    }
  };

  await batches('entities', async (from, to) => {
    const result = await sql`
      insert into entities (party_entity_id, tenant_id, names, country, created_at)
      select
        ${scaleId('entity')},
        ${tenantOf},
        jsonb_build_object('names', jsonb_build_object('entityName',
          ${pick(STEMS, sql`i`)} || ' ' || ${pick(INDUSTRIES, sql`i / ${STEMS.length}`)} || ' '
            || ${pick(LEGAL_FORMS, sql`i / ${STEMS.length * INDUSTRIES.length}`)})),
        case when i % 53 = 0 then null else ${pick(COUNTRIES, sql`i * 7`)} end,
        -- Scrambled but fixed: i times a large odd number, modulo two years.
        ${nowParam} - make_interval(secs => ((i::bigint * 2654435761) % ${720 * 86_400})::float8)
      from generate_series(${from}::int, ${to}::int) as i
      on conflict do nothing
    `.execute(db);
    summary.entities += Number(result.numAffectedRows ?? 0n);
  });

  await batches('entity_users', async (from, to) => {
    const given = pick(GIVEN_NAMES, sql`i`);
    const family = pick(FAMILY_NAMES, sql`i / ${GIVEN_NAMES.length}`);
    const result = await sql`
      insert into entity_users
        (party_user_id, party_entity_id, tenant_id, type, state, email, metadata, keys, created_at)
      select
        ${scaleId('user')},
        ${scaleId('entity')},
        ${tenantOf},
        case when i % 5 = 0 then 1 when i % 47 = 0 then 2 else 0 end,
        ${pick(STATES, sql`i`)},
        case when i % 61 = 0 then null
          else 'user' || i || '@loadtest' || (i % 997) || '.example' end,
        jsonb_build_object('givenName', ${given}, 'familyName', ${family}, 'preferredName', ${given}),
        case when i % 3 = 0 then '{}'::jsonb else jsonb_build_object(
          'api_key', 'sk_test_' || md5(${'scale:api_key:'}::text || i) || left(md5(${'scale:api_key2:'}::text || i), 16),
          'client_id', md5(${'scale:client:'}::text || i)::uuid::text) end,
        -- Some time after the entity was created.
        ${nowParam} - make_interval(secs => ((i::bigint * 2654435761) % ${720 * 86_400})::float8 * 0.9)
      from generate_series(${from}::int, ${to}::int) as i
      on conflict do nothing
    `.execute(db);
    summary.entityUsers += Number(result.numAffectedRows ?? 0n);
  });

  await batches('events', async (from, to) => {
    const inserted = await insertScaleEvents(db, { from, to, n, tenantIds: tenants.ids, now });
    summary.events += inserted.events;
    summary.processedEvents += inserted.processedEvents;
  });

  summary.rows += summary.entities + summary.entityUsers + summary.events + summary.processedEvents;
  summary.milliseconds = Math.round(performance.now() - started);
  return summary;
}

/** Rows `from` to `to` of `n` generated events (the timestamps depend on `n`). */
export interface ScaleEventBatch {
  from: number;
  to: number;
  n: number;
  /** The tenants the events belong to, in turn. */
  tenantIds: readonly number[];
  now: Date;
}

/**
 * One batch of events with their processing rows: 1 in 20 unprocessed (no worker has it), 1 in 97
 * failed in notifications, the rest done by both workers; 1 in 10 belongs to no entity, and a
 * tenth of those to no tenant either. Answers the rows it inserted.
 */
export async function insertScaleEvents(
  db: Kysely<Database>,
  batch: ScaleEventBatch,
): Promise<{ events: number; processedEvents: number }> {
  const { from, to, n } = batch;
  const nowParam = timestampParam(batch.now);
  const result = await sql<{ events: number; processed_events: number }>`
    with inserted as (
      insert into events
        (event_name, tenant_id, entity_id, unique_id, created_at, metadata, is_processed, has_error)
      select
        ${pick(EVENT_NAMES, sql`i`)},
        case when i % 100 = 0 then null else ${tenantOfRow(batch.tenantIds)} end,
        case when i % 10 = 0 then null else ${scaleId('entity')} end,
        ${scaleId('event')},
        ${nowParam} - make_interval(secs => ${30 * 86_400}::float8 * (${n}::int - i) / ${n}::int),
        jsonb_build_object('actor', 'loadtest@example.com', 'action', 'load-test', 'index', i),
        i % 20 <> 0 and i % 97 <> 0,
        i % 20 <> 0 and i % 97 = 0
      from generate_series(${from}::int, ${to}::int) as i
      on conflict do nothing
      returning id, created_at, is_processed, has_error
    ),
    processed as (
      insert into processed_events
        (event_id, worker_name, has_error, error_message, processed_at, attempts)
      select
        inserted.id,
        worker.name,
        inserted.has_error and worker.name = 'notifications',
        case when inserted.has_error and worker.name = 'notifications'
          then 'SMTP connection refused (127.0.0.1:19025)' end,
        case when inserted.has_error and worker.name = 'notifications'
          then null else least(inserted.created_at + interval '2 seconds', ${nowParam}) end,
        case when inserted.has_error and worker.name = 'notifications' then 3 else 1 end
      from inserted
      cross join unnest(${textArray(EVENT_WORKERS)}) as worker(name)
      where inserted.is_processed or inserted.has_error
      returning 1
    )
    select
      (select count(*) from inserted)::int as events,
      (select count(*) from processed)::int as processed_events
  `.execute(db);
  const counts = result.rows[0];
  return { events: counts?.events ?? 0, processedEvents: counts?.processed_events ?? 0 };
}
