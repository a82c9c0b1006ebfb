import { sql, type Kysely } from 'kysely';
import { BackgroundBuilds, type BackgroundBuildOptions } from './background-builds.ts';
import { planPage, walkDirection, type PagePlan } from './paging.ts';
import { perDatabase } from './per-database.ts';
import type { Database, ListCountsTable } from './schema.ts';

/**
 * Page anchors: exact deep pages of the entity lists without skipping half a million index
 * entries (docs/architecture.md, "Speed").
 *
 * For one list (one tenant's or all tenants'), the anchors are the keys at ascending positions 0,
 * K, 2K, … found by one index-only walk in one snapshot, filed under the list's generation in that
 * snapshot (list_counts.generation, migration 10: it grows in the same transaction as every change
 * of the list's keys). A page read in a snapshot showing the same generation sees the same keys,
 * so the row at position a is found by starting the walk at the anchor of a's block and skipping
 * fewer than K entries. The page's statement (features/entities/queries.ts) is given the anchor
 * with its generation and compares it with its own snapshot's: any other generation (a write
 * committed since) means the anchor is not used, the page takes the plain offset walk, still exact,
 * and the anchors are rebuilt in the background, one build per list at a time.
 */

/** A list that can be read from anchors: whose keys, of which tenant (undefined: all tenants). */
export interface AnchoredList {
  list: ListCountsTable['list'];
  tenantId: number | undefined;
}

export interface PageAnchorOptions extends BackgroundBuildOptions {
  /** K: rows between two anchors, so the most index entries a page skips. */
  spacing?: number;
  /** Lists (list and tenant) whose anchors are kept, least recently used dropped first. */
  maxLists?: number;
}

interface Anchors {
  generation: number;
  total: number;
  keys: string[];
}

/** Rows and generation of a list, as one snapshot shows them. */
export interface ListState {
  generation: number;
  total: number;
}

/**
 * A walk from an anchor: valid in a snapshot showing the list at `generation` with `total` rows,
 * where it starts at `key` (included) and skips `skip` rows.
 */
export interface AnchorStart extends ListState {
  key: string;
  skip: number;
}

/** The key each list is ordered, paged and anchored by (its primary key). */
export const LIST_KEYS = { entities: 'party_entity_id', entity_users: 'party_user_id' } as const;

export class PageAnchors {
  readonly spacing: number;
  private readonly maxLists: number;
  private readonly anchors = new Map<string, Anchors>();
  private readonly builds: BackgroundBuilds<string>;

  /** `db`: the database whose lists these are, which the builds read. */
  constructor(
    private readonly db: Kysely<Database>,
    options: PageAnchorOptions = {},
  ) {
    this.spacing = options.spacing ?? 1000;
    this.maxLists = options.maxLists ?? 256;
    this.builds = new BackgroundBuilds('Page anchors', options);
  }

  /**
   * Where a page at `offset` (of `limit` rows, in the list's order or `descending`) starts its walk
   * when its snapshot shows the list as the anchors were found: the anchor and the rows to skip
   * from it, with the generation and total the snapshot must show. Undefined without anchors, or
   * for a walk shorter than K, which gains nothing.
   */
  start(
    list: AnchoredList,
    offset: number,
    limit: number,
    descending: boolean,
  ): AnchorStart | undefined {
    const id = listId(list);
    const anchors = this.anchors.get(id);
    if (!anchors) return undefined;
    const plan = planPage(anchors.total, offset, limit);
    if (!plan || plan.offset < this.spacing) return undefined;
    const direction = walkDirection(descending, plan);
    const started = startAtAnchor(anchors.keys, this.spacing, anchors.total, plan, direction);
    if (started.from === undefined) return undefined;
    this.anchors.delete(id); // re-inserted: most recently used
    this.anchors.set(id, anchors);
    const { generation, total } = anchors;
    return { generation, total, key: started.from, skip: started.offset };
  }

  /**
   * After a page at `offset` was read in a snapshot showing `state` (`anchored`: from one of the
   * anchors, which are then current): a page deep enough for the anchors, whose anchors are
   * missing or of another snapshot, has them rebuilt in the background. Same generation means same
   * keys. The total is compared too, at no cost: it refuses most anchors of a database restored
   * under a running server whose generation happens to match.
   */
  pageRead(
    list: AnchoredList,
    state: ListState,
    offset: number,
    limit: number,
    anchored: boolean,
  ): void {
    if (anchored) return;
    const plan = planPage(state.total, offset, limit);
    if (!plan || plan.offset < this.spacing) return;
    const id = listId(list);
    const anchors = this.anchors.get(id);
    if (!anchors || anchors.generation !== state.generation || anchors.total !== state.total) {
      this.rebuild(list, id);
    }
  }

  /** Resolves when no build is running (tests, and the bench before it measures). */
  settled(): Promise<void> {
    return this.builds.settled();
  }

  private rebuild(list: AnchoredList, id: string): void {
    this.builds.start(id, async () =>
      this.keep(id, await buildAnchors(this.db, list, this.spacing)),
    );
  }

  private keep(id: string, anchors: Anchors): void {
    this.anchors.delete(id);
    this.anchors.set(id, anchors);
    for (const oldest of this.anchors.keys()) {
      if (this.anchors.size <= this.maxLists) break;
      this.anchors.delete(oldest);
      this.builds.forget(oldest);
    }
  }
}

function listId({ list, tenantId }: AnchoredList): string {
  return `${list}:${tenantId ?? 'all'}`;
}

/**
 * `plan` as a walk from an anchor: the walk's first row is at ascending position `first`; an
 * ascending walk starts at the anchor at or before it, a descending one at the anchor at or after
 * it, and skips the rows in between.
 */
export function startAtAnchor(
  keys: readonly string[],
  spacing: number,
  total: number,
  plan: PagePlan,
  direction: 'asc' | 'desc',
): PagePlan {
  const ascending = direction === 'asc';
  const first = ascending ? plan.offset : total - 1 - plan.offset;
  const block = ascending ? Math.floor(first / spacing) : Math.ceil(first / spacing);
  const from = keys[block];
  if (from === undefined) return plan;
  const skip = Math.abs(first - block * spacing);
  return { ...plan, offset: skip, from };
}

/** Generation and rows of a list, as `trx`'s snapshot shows them. */
export async function readListState(trx: Kysely<Database>, list: AnchoredList): Promise<ListState> {
  let query = trx
    .selectFrom('list_counts')
    .select([
      sql<number>`coalesce(sum(generation), 0)::bigint`.as('generation'),
      sql<number>`coalesce(sum(row_count), 0)::bigint`.as('total'),
    ])
    .where('list', '=', list.list);
  if (list.tenantId !== undefined) query = query.where('tenant_id', '=', list.tenantId);
  return query.executeTakeFirstOrThrow();
}

/**
 * The anchors of a list: its generation, rows and every `spacing`-th key in one snapshot, the
 * keys by one index-only walk. The sum of the tenants' generations stands for all tenants: each
 * only grows, so the sum changes whenever one does.
 */
async function buildAnchors(
  db: Kysely<Database>,
  list: AnchoredList,
  spacing: number,
): Promise<Anchors> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const state = await readListState(trx, list);
      const key = sql.ref(LIST_KEYS[list.list]);
      const table = sql.table(list.list);
      const tenant = list.tenantId === undefined ? sql`true` : sql`tenant_id = ${list.tenantId}`;
      // Each step skips `spacing` index entries from the last anchor (index-only, about half the
      // cost of numbering every row with row_number()).
      const { rows } = await sql<{ key: string }>`
        with recursive anchors (key) as (
          (select ${key} from ${table} where ${tenant} order by ${key} limit 1)
          union all
          select (
            select ${key} from ${table} where ${tenant} and ${key} > anchors.key
            order by ${key} offset ${spacing - 1} limit 1
          )
          from anchors where anchors.key is not null
        )
        select key from anchors where key is not null order by key
      `.execute(trx);
      return { ...state, keys: rows.map((row) => row.key) };
    });
}

const anchorsOfDatabases = perDatabase((db) => new PageAnchors(db));

/** The anchors of one database (one Kysely instance), made with the defaults on first use. */
export const pageAnchorsOf = anchorsOfDatabases.of;

/**
 * Uses other anchors for a database from now on (tests: a small spacing; a transaction reading
 * pages with its database's anchors).
 */
export const usePageAnchors = anchorsOfDatabases.use;
