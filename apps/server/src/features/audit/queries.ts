import {
  type AuditEntry,
  type AuditFilters,
  type AuditList,
  type AuditListQuery,
  type ExportFormat,
} from '@console/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import {
  countUpToExactMax,
  pageNumberTotal,
  planPage,
  walkDirection,
  type PagePlan,
} from '../../db/paging.ts';
import type { ListExport } from '../../http/export.ts';
import type { AuditLogTable, Database } from '../../db/schema.ts';

/** A LIKE pattern that finds `text` anywhere, its wildcards matching themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The audit log filtered as GET api/audit and its export ask. Each filter is written as its
 * index's own expression (migration 22), so that the planner walks that index in the list's order.
 */
function filtered(db: Kysely<Database>, query: AuditFilters) {
  return db
    .selectFrom('audit_log')
    .$if(query.actor !== undefined, (qb) =>
      qb.where(sql<string>`lower(actor)`, '=', (query.actor ?? '').toLowerCase()),
    )
    .$if(query.action !== undefined, (qb) => qb.where('action', '=', query.action ?? ''))
    .$if(query.targetType !== undefined, (qb) =>
      qb.where('target_type', '=', query.targetType ?? ''),
    )
    .$if(query.targetId !== undefined, (qb) => qb.where('target_id', '=', query.targetId ?? ''))
    .$if(query.tenantId !== undefined, (qb) => qb.where('tenant_id', '=', query.tenantId ?? 0))
    .$if(query.from !== undefined, (qb) => qb.where('occurred_at', '>=', query.from ?? new Date()))
    .$if(query.to !== undefined, (qb) => qb.where('occurred_at', '<', query.to ?? new Date()))
    .$if(query.q !== undefined, (qb) =>
      qb.where(sql<boolean>`target_name ilike ${containsPattern(query.q ?? '')} escape '\\'`),
    );
}

/** The rows of a page plan, in the plan's order (newest first unless reversed). */
export function auditRowsQuery(db: Kysely<Database>, query: AuditListQuery, plan: PagePlan) {
  const direction = walkDirection(true, plan);
  const { nextTo } = plan;
  return filtered(db, query)
    .$if(nextTo !== undefined, (qb) =>
      qb.where(
        sql<boolean>`(occurred_at, id) ${sql.raw(direction === 'desc' ? '<' : '>')}
          (select occurred_at, id from audit_log where id = ${nextTo})`,
      ),
    )
    .selectAll()
    .orderBy('occurred_at', direction)
    .orderBy('id', direction)
    .limit(plan.limit)
    .offset(plan.offset);
}

/** GET api/audit: one page, newest first, counted and read in one snapshot. */
export async function listAudit(db: Kysely<Database>, query: AuditListQuery): Promise<AuditList> {
  const offset = (query.page - 1) * query.pageSize;
  const { rows, total } = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const { counted } = await countUpToExactMax(
        trx,
        filtered(trx, query).select('id'),
      ).executeTakeFirstOrThrow();
      const total = await pageNumberTotal(trx, counted, () => filtered(trx, query).select('id'));
      const step = await stepFrom(trx, query);
      // Previous / Next walk from the row they name. Else a deep page of an exact total is read
      // from the nearer end (db/paging.ts); an estimate has no reliable end, so the walk goes from
      // the newest row.
      const plan: PagePlan | null = step
        ? { offset: 0, limit: query.pageSize, ...step }
        : total.totalIsEstimate
          ? { offset, limit: query.pageSize, reversed: false }
          : planPage(total.totalCount, offset, query.pageSize);
      if (!plan) return { rows: [], total };
      const read = await auditRowsQuery(trx, query, plan).execute();
      if (plan.reversed) read.reverse();
      return { rows: read, total };
    });

  const tenantIds = [
    ...new Set(rows.flatMap((row) => (row.tenant_id === null ? [] : [row.tenant_id]))),
  ];
  const tenants =
    tenantIds.length === 0
      ? []
      : await db
          .selectFrom('tenants')
          .select(['id', 'company_name'])
          .where('id', 'in', tenantIds)
          .execute();
  const names = new Map(tenants.map((tenant) => [tenant.id, tenant.company_name]));
  return {
    data: rows.map((row) => toAuditEntry(row, names)),
    ...total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * The keyset step `query` asks for (`after`: the rows after that row, `before`: those before it,
 * walked the other way), or undefined: none asked, or that row is not in the log.
 */
async function stepFrom(
  trx: Kysely<Database>,
  query: AuditListQuery,
): Promise<Pick<PagePlan, 'reversed' | 'nextTo'> | undefined> {
  const nextTo = query.after ?? query.before;
  if (nextTo === undefined) return undefined;
  const row = await trx
    .selectFrom('audit_log')
    .select('id')
    .where('id', '=', nextTo)
    .executeTakeFirst();
  return row && { reversed: query.before !== undefined, nextTo };
}

function toAuditEntry(
  row: Selectable<AuditLogTable>,
  tenantNames: ReadonlyMap<number, string>,
): AuditEntry {
  return {
    id: row.id,
    eventId: row.event_id,
    eventName: row.event_name,
    occurredAt: row.occurred_at.toISOString(),
    actor: row.actor,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    targetName: row.target_name,
    tenantId: row.tenant_id,
    tenantName: row.tenant_id === null ? null : (tenantNames.get(row.tenant_id) ?? null),
    entityId: row.entity_id,
    before: row.before,
    after: row.after,
    metadata: row.metadata,
  };
}

/** A row as the export reads it: times and JSON as text made by PostgreSQL, the tenant's name. */
function auditExportRows(db: Kysely<Database>, filters: AuditFilters) {
  return filtered(db, filters)
    .select([
      'audit_log.id',
      sql<string>`to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(
        'occurred_at',
      ),
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
export function auditExport(
  db: Kysely<Database>,
  filters: AuditFilters & { format: ExportFormat },
): ListExport<AuditExportRow> {
  return {
    name: 'audit-log',
    format: filters.format,
    db,
    query: auditExportRows(db, filters),
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
