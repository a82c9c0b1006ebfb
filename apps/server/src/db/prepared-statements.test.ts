import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/test-database.ts';
import { preparedStatement, queryConfig } from './prepared-statements.ts';

const database = useTestDatabase({ empty: true });
const nextNumber = preparedStatement('prepared_statements_test', 'select $1::int + 1 as next');

describe('prepared statements', () => {
  it('are sent by name through Kysely, and every other statement unnamed', async () => {
    await database.db.connection().execute(async (connection) => {
      for (const value of [1, 41]) {
        const { rows } = await connection.executeQuery(nextNumber([value]));
        expect(rows).toEqual([{ next: value + 1 }]);
      }
      await sql`select ${'not prepared'}::text`.execute(connection);
      const { rows } = await sql<{ name: string }>`
        select name from pg_prepared_statements
      `.execute(connection);
      expect(rows).toEqual([{ name: 'prepared_statements_test' }]);
    });
  });

  it('are sent by name when replayed through pg (the benchmarks)', () => {
    const { sql: text, parameters } = nextNumber([2]);
    expect(queryConfig(text, parameters)).toEqual({
      name: 'prepared_statements_test',
      text,
      values: [2],
    });
    expect(queryConfig('select 1', [])).toEqual({ text: 'select 1', values: [] });
  });

  it('reject the queries of a connection lost while it is checked out, without ending the process', async () => {
    // Vitest fails the run on an uncaught error: an 'error' event nobody hears would be one.
    const lost = await database.db.connection().execute(async (connection) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(
        connection,
      );
      await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(database.db);
      return sql`select 1`.execute(connection).then(
        () => 'answered',
        (error: Error) => error.message,
      );
    });
    expect(lost).toMatch(/terminat/i);
    // The pool drops the lost connection once it has seen it end; a query meanwhile may still
    // take it and fail, as on any connection lost under a pool.
    const answers: string[] = [];
    for (let attempt = 0; attempt < 3 && answers.at(-1) !== 'answered'; attempt += 1) {
      answers.push(
        await sql`select 1`.execute(database.db).then(
          () => 'answered',
          (error: Error) => error.message,
        ),
      );
    }
    expect(answers.at(-1)).toBe('answered');
  });

  it('refuse a name already given to another text', () => {
    expect(() => preparedStatement('prepared_statements_test', 'select 2')).toThrow(
      'Prepared statement prepared_statements_test is already registered with another text',
    );
  });
});
