import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/test-database.ts';
import { namingPool, preparedStatement, queryConfig } from './prepared-statements.ts';

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
    // The error reaches the query, or reached the client just before it: either way it is refused.
    expect(lost).toMatch(/terminat|connection error/i);
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

  it('reject the queries of a connection that fails as it opens, without ending the process', async () => {
    // A protocol peer for the moment PostgreSQL shuts down: it accepts the new connection and,
    // in the same packet, ends it with FATAL 57P01. pg hands the client out while reading that
    // packet and then reads the error: the listener must already be there.
    const message = (type: string, body: Buffer) => {
      const header = Buffer.alloc(5);
      header.write(type, 0, 'latin1');
      header.writeInt32BE(body.length + 4, 1);
      return Buffer.concat([header, body]);
    };
    const authenticationOk = message('R', Buffer.from([0, 0, 0, 0]));
    const readyForQuery = message('Z', Buffer.from('I', 'latin1'));
    const fields = [
      'SFATAL',
      'VFATAL',
      'C57P01',
      'Mterminating connection due to administrator command',
    ];
    const fatal = message('E', Buffer.from(`${fields.join('\0')}\0\0`, 'utf8'));
    const peer = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () =>
        socket.end(Buffer.concat([authenticationOk, readyForQuery, fatal])),
      );
    });
    peer.listen(0, '127.0.0.1');
    await once(peer, 'listening');
    const pool = new pg.Pool({
      host: '127.0.0.1',
      port: (peer.address() as AddressInfo).port,
      user: 'console',
      database: 'console',
    });
    pool.on('error', () => {});
    try {
      const client = await namingPool(pool).connect();
      await expect(client.query('select 1', [])).rejects.toThrow();
      client.release();
    } finally {
      await pool.end();
      peer.close();
    }
  });

  it('refuse a name already given to another text', () => {
    expect(() => preparedStatement('prepared_statements_test', 'select 2')).toThrow(
      'Prepared statement prepared_statements_test is already registered with another text',
    );
  });
});
