import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database.ts';
import { listEntities } from '../features/entities/queries.ts';
import { listEntityUsers } from '../features/entity-users/queries.ts';
import { parseJsonText } from '../http/json-text.ts';
import type { DatabaseHandle } from './connection.ts';
import { seedCountries } from './seed/countries.ts';
import {
  LIST_KEYS,
  PageAnchors,
  readListState,
  startAtAnchor,
  usePageAnchors,
  type AnchoredList,
  type ListState,
} from './page-anchors.ts';
import { planPage } from './paging.ts';
import type { Database } from './schema.ts';

// Deep pages read from anchors must be exactly the pages of a plain offset walk, whatever the
// writes around them. K = 7 keeps the lists small: a few hundred rows make dozens of anchors.

const SPACING = 7;
type List = keyof typeof LIST_KEYS;

/**
 * The anchors of the test database, telling whether the last page read came from one (the tests
 * that look read one page at a time).
 */
class RecordingAnchors extends PageAnchors {
  lastPageAnchored: boolean | undefined;

  override pageRead(
    list: AnchoredList,
    state: ListState,
    offset: number,
    limit: number,
    anchored: boolean,
  ): void {
    this.lastPageAnchored = anchored;
    super.pageRead(list, state, offset, limit, anchored);
  }
}

let database: DatabaseHandle;
let anchors: RecordingAnchors;
let tenants: number[];
const db = (): Kysely<Database> => database.db;

beforeAll(async () => {
  database = await createTestDatabase();
  // No pause between builds: the tests read right after a write and expect the anchors rebuilt,
  // which the pause would leave to the timing of the machine.
  anchors = new RecordingAnchors(database.db, { spacing: SPACING, pauseAfterBuild: () => 0 });
  usePageAnchors(db(), anchors);
  await seedCountries(db());
  const { rows } = await sql<{ id: number }>`
    insert into tenants (company_name, domicile_country_id, created_by, updated_by)
    select 'Anchored ' || i, 250, 'test', 'test' from generate_series(1, 3) as i
    returning id
  `.execute(db());
  tenants = rows.map((row) => row.id);
  await insertRows('seed-', 300);
});

afterAll(async () => {
  await anchors?.settled();
  await database?.close();
});

/** `rows` entities with one user each, spread over the tenants, keys starting with `prefix`. */
async function insertRows(prefix: string, rows: number, trx: Kysely<Database> = db()) {
  await sql`
    insert into entities (party_entity_id, tenant_id)
    select ${prefix} || md5(i::text), (${sql.val(tenants)}::int[])[1 + i % ${tenants.length}]
    from generate_series(1, ${rows}::int) as i
  `.execute(trx);
  await sql`
    insert into entity_users (party_user_id, party_entity_id, tenant_id, type, state)
    select 'user-' || party_entity_id, party_entity_id, tenant_id, 1, 'active'
    from entities where party_entity_id like ${`${prefix}%`}
  `.execute(trx);
}

/** The keys of a page by a plain offset walk, in `trx`'s snapshot. */
async function plainPage(
  trx: Kysely<Database>,
  list: AnchoredList & { descending: boolean },
  offset: number,
  limit: number,
): Promise<string[]> {
  const key = sql.ref(LIST_KEYS[list.list]);
  const tenant = list.tenantId === undefined ? sql`true` : sql`tenant_id = ${list.tenantId}`;
  const { rows } = await sql<{ key: string }>`
    select ${key} as key from ${sql.table(list.list)} where ${tenant}
    order by ${key} ${sql.raw(list.descending ? 'desc' : 'asc')} offset ${offset} limit ${limit}
  `.execute(trx);
  return rows.map((row) => row.key);
}

/**
 * One page as GET /api/Entity or /api/EntityUser reads it, checked against the plain offset walk
 * in the same snapshot (a repeatable read transaction the page's statement runs in); true when it
 * was read from an anchor.
 */
async function checkedPage(
  list: AnchoredList & { descending: boolean },
  offset: number,
  limit: number,
): Promise<boolean> {
  return db()
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      usePageAnchors(trx, anchors);
      const page = await productPage(list, offset, limit, trx);
      const anchored = anchors.lastPageAnchored;
      expect(page).toEqual(await plainPage(trx, list, offset, limit));
      return anchored === true;
    });
}

const deep = (list: List, tenantId?: number) => ({ list, tenantId, descending: false });

/** Anchors of `list` built for the current generation. */
async function warm(list: AnchoredList & { descending: boolean }) {
  await productPage(list, SPACING * 3, 5);
  await anchors.settled();
  expect(await checkedPage(list, SPACING * 3, 5)).toBe(true);
}

describe('startAtAnchor', () => {
  it('starts every walk at a key at most K - 1 rows before its first row', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 20 }),
        fc.nat(200),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        (total, spacing, offset, limit, ascending) => {
          const sorted = Array.from({ length: total }, (_, index) =>
            String(index).padStart(4, '0'),
          );
          const keys = sorted.filter((_, index) => index % spacing === 0);
          const plan = { offset: Math.min(offset, total - 1), limit, reversed: !ascending };
          const direction = ascending ? 'asc' : 'desc';
          const walk = ascending ? sorted : [...sorted].reverse();
          const started = startAtAnchor(keys, spacing, total, plan, direction);
          const from = started.from === undefined ? 0 : walk.indexOf(started.from);
          expect(walk.slice(from + started.offset, from + started.offset + limit)).toEqual(
            walk.slice(plan.offset, plan.offset + limit),
          );
          if (started.from !== undefined) expect(started.offset).toBeLessThan(spacing);
        },
      ),
    );
  });
});

describe('deep pages from anchors', () => {
  it('are the pages of a plain offset walk, for any list, tenant, order, offset and limit', async () => {
    for (const list of ['entities', 'entity_users'] as const) {
      for (const tenantId of [undefined, ...tenants]) await warm(deep(list, tenantId));
    }
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<List>('entities', 'entity_users'),
        fc.constantFrom<number | undefined>(undefined, ...tenants),
        fc.boolean(),
        fc.nat(320),
        fc.integer({ min: 1, max: 40 }),
        async (list, tenantId, descending, offset, limit) => {
          expect(await checkedPage({ list, tenantId, descending }, offset, limit)).toBe(
            (planPage(await totalOf(list, tenantId), offset, limit)?.offset ?? 0) >= SPACING,
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('are not read from anchors a write made stale, until they are rebuilt', async () => {
    const writes: [string, () => Promise<unknown>][] = [
      ['insert', () => insertRows('write-', 10)],
      [
        'delete',
        () => sql`delete from entity_users where party_user_id like 'user-write-%'`.execute(db()),
      ],
      [
        'tenant move',
        () =>
          sql`update entity_users set tenant_id = ${tenants[0]!} where party_user_id in (select party_user_id from entity_users where tenant_id = ${tenants[1]!} limit 3)`.execute(
            db(),
          ),
      ],
      [
        'key change',
        () =>
          sql`update entity_users set party_user_id = party_user_id || '-renamed' where party_user_id in (select party_user_id from entity_users where tenant_id = ${tenants[0]!} order by party_user_id limit 2)`.execute(
            db(),
          ),
      ],
    ];
    for (const [name, write] of writes) {
      for (const tenantId of [undefined, tenants[0]!]) await warm(deep('entity_users', tenantId));
      await write();
      for (const tenantId of [undefined, tenants[0]!]) {
        const list = deep('entity_users', tenantId);
        expect(await checkedPage(list, SPACING * 4, 9), `${name}, tenant ${tenantId}`).toBe(false);
        await anchors.settled();
        expect(await checkedPage(list, SPACING * 4, 9), `${name}, tenant ${tenantId}`).toBe(true);
      }
    }
  });

  it('keep their anchors through writes that change no key and writes rolled back', async () => {
    await warm(deep('entities'));
    await sql`update entities set country = 'FR' where tenant_id = ${tenants[2]!}`.execute(db());
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await insertRows('rolled-back-', 20, trx);
          throw new Error('roll back');
        }),
    ).rejects.toThrow('roll back');
    expect(await checkedPage(deep('entities'), SPACING * 5, 10)).toBe(true);
  });

  it('are exact under concurrent writers', async () => {
    await warm(deep('entity_users'));
    let writing = true;
    const writers = Array.from({ length: 3 }, async (_, writer) => {
      for (let round = 0; writing; round += 1) {
        await insertRows(`concurrent-${writer}-${round}-`, 4);
        await sql`update entity_users set tenant_id = ${tenants[round % 3]!} where party_user_id like ${`user-concurrent-${writer}-%`}`.execute(
          db(),
        );
        await sql`delete from entity_users where party_user_id like ${`user-concurrent-${writer}-${round - 1}-%`}`.execute(
          db(),
        );
      }
    });
    const readers = Array.from({ length: 3 }, async (_, reader) => {
      for (let read = 0; read < 40; read += 1) {
        const tenantId = reader === 0 ? undefined : tenants[reader]!;
        await checkedPage(
          { ...deep('entity_users', tenantId), descending: read % 2 === 1 },
          10 + ((read * 17) % 80),
          13,
        );
      }
    });
    await Promise.all(readers);
    writing = false;
    await Promise.all(writers);
  });

  it('are not read from anchors a truncate made stale', async () => {
    await warm(deep('entity_users'));
    await sql`truncate entity_users`.execute(db());
    await sql`
      insert into entity_users (party_user_id, party_entity_id, tenant_id, type, state)
      select 'user-again-' || party_entity_id, party_entity_id, tenant_id, 1, 'active' from entities
    `.execute(db());
    expect(await checkedPage(deep('entity_users'), SPACING * 6, 11)).toBe(false);
    await anchors.settled();
    expect(await checkedPage(deep('entity_users'), SPACING * 6, 11)).toBe(true);
  });
});

/** The keys of a page as GET /api/Entity or /api/EntityUser reads it, on `executor`. */
async function productPage(
  { list, tenantId, descending }: AnchoredList & { descending: boolean },
  offset: number,
  limit: number,
  executor: Kysely<Database> = db(),
): Promise<string[]> {
  const sort = descending ? '-' : '';
  if (list === 'entities') {
    const query = { tenantId, offset, limit, sort: `${sort}partyEntityId` } as const;
    const page = parseJsonText(await listEntities(executor, tenantId, query));
    return page.data.map((row) => row.partyEntityId);
  }
  const query = { tenantId, offset, limit, sort: `${sort}partyUserId` } as const;
  const page = parseJsonText(await listEntityUsers(executor, tenantId, query));
  return page.data.map((row) => row.partyUserId);
}

async function totalOf(list: List, tenantId: number | undefined): Promise<number> {
  return (await readListState(db(), { list, tenantId })).total;
}
