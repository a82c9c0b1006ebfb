import {
  type AuditFilters,
  type AuditList,
  type AuditListQuery,
  type ExportFormat,
} from '@console/contracts';
import { sql, type CompiledQuery, type Kysely, type RawBuilder } from 'kysely';
import {
  pageNumberedText,
  pageParam,
  pageParameterValues,
  pageStatement,
  pageStatementText,
} from '../../db/paging.ts';
import { readLogPage } from '../../db/log-anchors.ts';
import type { Database } from '../../db/schema.ts';
import type { ListExport } from '../../http/export.ts';
import { isoText, type JsonText } from '../../http/json-text.ts';

/** A LIKE pattern that finds `text` anywhere, its wildcards matching themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The most target names a free text is answered through (`targetNamesContaining`): the names go
 * to the page statement as a parameter, which PostgreSQL plans with them (a few hundred names
 * cost a millisecond to plan).
 */
export const TARGET_NAMES_MAX = 1000;

/**
 * The target names that contain `q`, ignoring letter case (audit_target_names, migration 28:
 * every name the log holds, once, with a trigram index), or 'many' when more than
 * TARGET_NAMES_MAX do. A record's name repeats in each of its changes, so names are far fewer
 * than rows: a trigram index of the log's 10^7 names took 170 ms to find a name 1,100 rows share
 * (it reads the whole list of each common trigram), the names' own index 2 ms.
 */
export async function targetNamesContaining(db: Kysely<Database>, q: string): Promise<TargetNames> {
  const rows = await db
    .selectFrom('audit_target_names')
    .select('name')
    .where(sql<boolean>`name ilike ${containsPattern(q)} escape '\\'`)
    .limit(TARGET_NAMES_MAX + 1)
    .execute();
  return rows.length > TARGET_NAMES_MAX ? 'many' : rows.map((row) => row.name);
}

/** The target names a free text finds (targetNamesContaining), or 'many'. */
export type TargetNames = readonly string[] | 'many';

/**
 * What the filters compare with (undefined: the filter is not asked), as the request's values or
 * as a page statement's parameters: the actor in lower case; for the free text, the target names
 * that contain it, or (more names than TARGET_NAMES_MAX) its LIKE pattern over the names.
 */
interface AuditOperands {
  actor: string | RawBuilder<string> | undefined;
  action: string | RawBuilder<string> | undefined;
  targetType: string | RawBuilder<string> | undefined;
  targetId: string | RawBuilder<string> | undefined;
  tenantId: number | RawBuilder<number> | undefined;
  from: Date | RawBuilder<Date> | undefined;
  to: Date | RawBuilder<Date> | undefined;
  targetNames: readonly string[] | RawBuilder<string[]> | undefined;
  targetNamesLike: string | RawBuilder<string> | undefined;
}

/** The operands of `filters`, as values (`names`: targetNamesContaining's for `q`). */
function auditOperands(filters: AuditFilters, names: TargetNames | undefined): AuditOperands {
  return {
    actor: filters.actor?.toLowerCase(),
    action: filters.action,
    targetType: filters.targetType,
    targetId: filters.targetId,
    tenantId: filters.tenantId,
    from: filters.from,
    to: filters.to,
    targetNames: names === 'many' ? undefined : names,
    targetNamesLike:
      names === 'many' && filters.q !== undefined ? containsPattern(filters.q) : undefined,
  };
}

/**
 * The audit log under `operands`: the list's and the export's one rule. Each filter is written as
 * its index's own expression (migrations 22 and 28), so that the planner walks that index.
 */
function matchingAudit(db: Kysely<Database>, operands: AuditOperands) {
  const { actor, action, targetType, targetId, tenantId, from, to } = operands;
  const { targetNames, targetNamesLike } = operands;
  let query = db.selectFrom('audit_log');
  if (actor !== undefined) query = query.where(sql<string>`lower(actor)`, '=', actor);
  if (action !== undefined) query = query.where('action', '=', action);
  if (targetType !== undefined) query = query.where('target_type', '=', targetType);
  if (targetId !== undefined) query = query.where('target_id', '=', targetId);
  if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
  if (from !== undefined) query = query.where('occurred_at', '>=', from);
  if (to !== undefined) query = query.where('occurred_at', '<', to);
  if (targetNames !== undefined) {
    query = query.where('target_name', '=', sql<string>`any(${targetNames})`);
  }
  if (targetNamesLike !== undefined) {
    query = query.where('target_name', 'in', (eb) =>
      eb
        .selectFrom('audit_target_names')
        .select('name')
        .where(sql<boolean>`name ilike ${targetNamesLike} escape '\\'`),
    );
  }
  return query;
}

/**
 * GET api/audit: one page, newest first, counted and read by one statement (one snapshot, one
 * round trip), its JSON put together by PostgreSQL and sent as it is (docs/audit.md, "How it
 * stays fast"). The free text first finds the target names that contain it (one round trip
 * more); beyond EXACT_TOTAL_MAX matching rows the total is the planner's estimate (another). A
 * deep page of the whole log asked by its number alone starts from the log's page anchors
 * (db/log-anchors.ts).
 */
export async function listAudit(
  db: Kysely<Database>,
  query: AuditListQuery,
): Promise<JsonText<AuditList>> {
  const names = query.q === undefined ? undefined : await targetNamesContaining(db, query.q);
  if (names?.length === 0) {
    return pageNumberedText('[]', { totalCount: 0, totalIsEstimate: false }, query);
  }
  const operands = auditOperands(query, names);
  return readLogPage<AuditList>(db, {
    log: 'audit_log',
    query,
    whole: AUDIT_FILTERS.every((filter) => operands[filter] === undefined),
    descending: true,
    statement: () => auditPageStatement(db, query, names),
    stepAfter: (after) => auditPageStatement(db, { ...query, after }, names),
    matching: () => matchingAudit(db, operands).select(sql`1`.as('one')),
  });
}

/** The audit log's own parameters, after the four of every page statement (db/paging.ts). */
const AUDIT_PARAMETERS = sql`$5::text as actor, $6::text as action, $7::text as target_type,
  $8::text as target_id, $9::integer as tenant_id, $10::timestamptz as occurred_from,
  $11::timestamptz as occurred_to, $12::text[] as target_names, $13::text as target_names_like`;
const param = {
  actor: sql<string>`$5`,
  action: sql<string>`$6`,
  targetType: sql<string>`$7`,
  targetId: sql<string>`$8`,
  tenantId: sql<number>`$9`,
  from: sql<Date>`$10`,
  to: sql<Date>`$11`,
  targetNames: sql<string[]>`$12`,
  targetNamesLike: sql<string>`$13`,
} satisfies Record<keyof AuditOperands, RawBuilder<unknown>>;

type AuditFilter = keyof AuditOperands;
const AUDIT_FILTERS = Object.keys(param) as AuditFilter[];

/**
 * The equality filters an index leads with, each exactly (then occurred_at and id): a page under
 * one of these (and any dates) is the same walk of that index whatever the values, so its
 * statement goes as a named statement, planned once per connection. Every other shape depends on
 * the values (how many rows a target type or the names have: which index to walk, which filter to
 * test on its entries) and is planned at each call, with them.
 */
const ONE_INDEX_FILTERS = new Set([
  '',
  'actor',
  'action',
  'tenantId',
  'targetType_targetId',
  'actor_action',
]);

/**
 * The page statement of `query` (db/paging.ts, `pageStatementText`), with its parameters
 * (`names`: targetNamesContaining's for `q`).
 */
export function auditPageStatement(
  db: Kysely<Database>,
  query: AuditListQuery,
  names: TargetNames | undefined,
): CompiledQuery {
  const operands = auditOperands(query, names);
  const filters = AUDIT_FILTERS.filter((filter) => operands[filter] !== undefined);
  const stepped = (query.after ?? query.before) !== undefined;
  const equalities = filters.filter((filter) => filter !== 'from' && filter !== 'to');
  return pageStatement(
    `audit_page_${[...filters, ...(stepped ? ['stepped'] : [])].join('_')}`,
    ONE_INDEX_FILTERS.has(equalities.join('_')),
    () => auditPageText(db, filters, stepped),
    [...pageParameterValues(query), ...AUDIT_FILTERS.map((filter) => operands[filter] ?? null)],
  );
}

/** The page statement under `filters`: the page's rows written as the API's JSON. */
function auditPageText(
  db: Kysely<Database>,
  filters: readonly AuditFilter[],
  stepped: boolean,
): string {
  const operands = Object.fromEntries(
    filters.map((filter) => [filter, param[filter]]),
  ) as unknown as AuditOperands;
  return pageStatementText(db, {
    table: 'audit_log',
    parameters: AUDIT_PARAMETERS,
    descending: sql<boolean>`true`,
    matching: () => matchingAudit(db, operands).select('id'),
    filtered: filters.length > 0,
    cursor: stepped
      ? db.selectFrom('audit_log').select(['occurred_at', 'id']).where('id', '=', pageParam.cursor)
      : undefined,
    rowJson: auditEntryJson(),
  });
}

/** A row of the page (alias `r`) as the API's AuditEntry, with its tenant's name. */
function auditEntryJson() {
  return sql`json_build_object(
    'id', r.id, 'eventId', r.event_id, 'eventName', r.event_name,
    'occurredAt', ${isoText('r.occurred_at')}, 'actor', r.actor, 'action', r.action,
    'targetType', r.target_type, 'targetId', r.target_id, 'targetName', r.target_name,
    'tenantId', r.tenant_id,
    'tenantName', (select t.company_name from tenants as t where t.id = r.tenant_id),
    'entityId', r.entity_id, 'before', r.before, 'after', r.after, 'metadata', r.metadata)`;
}

/** A row as the export reads it: times and JSON as text made by PostgreSQL, the tenant's name. */
function auditExportRows(
  db: Kysely<Database>,
  filters: AuditFilters,
  names: TargetNames | undefined,
) {
  return matchingAudit(db, auditOperands(filters, names))
    .select([
      'audit_log.id',
      isoText('occurred_at').as('occurred_at'),
      'actor',
      'action',
      'target_type',
      'target_id',
      'target_name',
      'audit_log.tenant_id',
      sql<
        string | null
      >`(select company_name from tenants where tenants.id = audit_log.tenant_id)`.as(
        'tenant_name',
      ),
      'event_name',
      sql<string | null>`before::text`.as('before'),
      sql<string | null>`after::text`.as('after'),
    ])
    .orderBy('occurred_at', 'desc')
    .orderBy('audit_log.id', 'desc');
}

type AuditExportRow = Awaited<
  ReturnType<ReturnType<typeof auditExportRows>['executeTakeFirstOrThrow']>
>;

/** GET api/audit/export: every row the list shows under `filters`, newest first. */
export async function auditExport(
  db: Kysely<Database>,
  filters: AuditFilters & { format: ExportFormat },
): Promise<ListExport<AuditExportRow>> {
  const names = filters.q === undefined ? undefined : await targetNamesContaining(db, filters.q);
  return {
    name: 'audit-log',
    format: filters.format,
    db,
    query: auditExportRows(db, filters, names),
    columns: [
      { header: 'ID', value: (row) => row.id },
      { header: 'Time', value: (row) => row.occurred_at },
      { header: 'Actor', value: (row) => row.actor },
      { header: 'Action', value: (row) => row.action },
      { header: 'Target Type', value: (row) => row.target_type },
      { header: 'Target ID', value: (row) => row.target_id },
      { header: 'Target Name', value: (row) => row.target_name },
      { header: 'Tenant ID', value: (row) => row.tenant_id },
      { header: 'Tenant', value: (row) => row.tenant_name },
      { header: 'Event', value: (row) => row.event_name },
      { header: 'Before', value: (row) => row.before },
      { header: 'After', value: (row) => row.after },
    ],
  };
}
