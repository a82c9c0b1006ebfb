import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/test-database.ts';
import { copyInto, type CopyValue } from './copy.ts';

const database = useTestDatabase({ empty: true });
const db = () => database.db;

beforeEach(async () => {
  await sql`drop table if exists copied`.execute(db());
  await sql`create table copied (position integer primary key, label text, grades jsonb)`.execute(
    db(),
  );
});

const copied = async () =>
  (
    await sql<{ position: number; label: string | null; grades: unknown }>`
    select position, label, grades from copied order by position
  `.execute(db())
  ).rows;

/** Enough rows for several chunks of the stream (64 K characters each). */
const manyRows = (count: number): CopyValue[][] =>
  Array.from({ length: count }, (_, index) => [index, `row ${index}`, '{"io1": "SE"}']);

describe('copyInto', () => {
  it('copies every row in a transaction, text as it was sent', async () => {
    const labels = ['tab\there', 'new\nline', 'carriage\rreturn', 'back\\slash', '\\N', 'ünï 😀'];
    const rows: CopyValue[][] = [
      ...labels.map((label, index) => [index, label, JSON.stringify({ label })]),
      [labels.length, null, null],
    ];
    const count = await db()
      .transaction()
      .execute(async (trx) => {
        const { numAffectedRows } = await trx.executeQuery(
          copyInto('copied', ['position', 'label', 'grades'], rows),
        );
        return numAffectedRows;
      });
    expect(count).toBe(BigInt(rows.length));
    expect(await copied()).toEqual([
      ...labels.map((label, index) => ({ position: index, label, grades: { label } })),
      { position: labels.length, label: null, grades: null },
    ]);
  });

  it('streams rows as they are made, over many chunks', async () => {
    await db().executeQuery(copyInto('copied', ['position', 'label', 'grades'], manyRows(20_000)));
    expect((await copied()).length).toBe(20_000);
  });

  it('rolls the transaction back when PostgreSQL refuses a row, or making the rows fails', async () => {
    const duplicate = [...manyRows(5000), [0, 'again', null]];
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await sql`insert into copied values (-1, 'before', null)`.execute(trx);
          await trx.executeQuery(copyInto('copied', ['position', 'label', 'grades'], duplicate));
        }),
    ).rejects.toThrow(/duplicate key/);
    function* failing(): Generator<CopyValue[]> {
      yield* manyRows(5000);
      throw new Error('no more rows');
    }
    await expect(
      db().executeQuery(copyInto('copied', ['position', 'label', 'grades'], failing())),
    ).rejects.toThrow('no more rows');
    expect(await copied()).toEqual([]);
    // The pool's connections are usable afterwards.
    expect((await sql<{ one: number }>`select 1 as one`.execute(db())).rows).toEqual([{ one: 1 }]);
  });
});
