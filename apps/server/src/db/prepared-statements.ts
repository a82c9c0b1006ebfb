import {
  CompiledQuery,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
} from 'kysely';
import type pg from 'pg';
import { CopyRows, sendCopy } from './copy.ts';

/**
 * Named prepared statements for the hottest statements (a page of the entity lists, the active
 * email template version each mail reads, the outbox's insert that every write sends, the
 * countries import). PostgreSQL parses such a statement once per connection and,
 * after a few executions, keeps one generic plan for it, so a request costs only the execution:
 * planning alone took about as long as executing a page of the big lists. Every other statement
 * is sent unnamed, as Kysely sends it: statements built per request (a varying `in` list) would
 * otherwise pile up prepared plans in every connection.
 *
 * A statement is known by its text: the pool Kysely uses (`namingPool`) sends a registered text
 * under its name, so the statement still goes through Kysely (its transactions, its logging) like
 * any other. The benchmark's replay sends recorded statements the same way (`queryConfig`).
 */

/** Registered texts and their names. */
const names = new Map<string, string>();

/**
 * Registers `text` as the named statement `name` and answers the query that runs it with
 * parameters. Names are unique per process: pg refuses one name for two texts on a connection.
 */
export function preparedStatement(
  name: string,
  text: string,
): (parameters: readonly unknown[]) => CompiledQuery {
  for (const [known, knownName] of names) {
    if (knownName === name && known !== text) {
      throw new Error(`Prepared statement ${name} is already registered with another text`);
    }
  }
  names.set(text, name);
  return (parameters) => CompiledQuery.raw(text, [...parameters]);
}

/** How pg sends `text` with `values`: as its named statement when it is registered. */
export function queryConfig(text: string, values: readonly unknown[]): pg.QueryConfig {
  const name = names.get(text);
  return name === undefined ? { text, values: [...values] } : { name, text, values: [...values] };
}

/**
 * Runs `config` on `client` through pg's callback, not through the promise pg returns without
 * one: under load, the results of that promise (a chain through `.catch`) outlived nearly every
 * young-generation collection, a page of the entity lists included, so V8 copied and promoted
 * about 4 MB at each one. Its pauses took a sixth of the server's time, and a page cost twice the
 * CPU of the callback form (docs/architecture.md). Kysely adds the caller's stack to an error.
 */
export function sendQuery<R extends pg.QueryResultRow>(
  client: pg.ClientBase,
  config: pg.QueryConfig,
): Promise<pg.QueryResult<R>> {
  return new Promise((resolve, reject) => {
    client.query<R>(config, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** `pool` for Kysely's PostgresDialect, sending registered statements by name. */
export function namingPool(pool: pg.Pool): PostgresPool {
  // The pool listens for errors of idle clients only. A connection lost while its client is
  // checked out (the database stopped between two statements of a transaction) reaches the
  // client's queries, and the pool drops the client when it comes back; unheard, the 'error'
  // event would end the process instead of answering 503. The listener is added when the pool
  // opens the connection, not when we first get the client: a new connection is handed out from
  // inside pg's read of the server's answer, and an error in that same read (the server shutting
  // down as the connection opens) came before our code could run.
  pool.on('connect', (client) => client.on('error', () => {}));
  // One wrapper per connection: Kysely keeps its own connection object per client it is given.
  const wrappers = new WeakMap<pg.PoolClient, NamingClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = new NamingClient(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

class NamingClient implements PostgresPoolClient {
  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    statement: string | PostgresCursor<R>,
    parameters: ReadonlyArray<unknown> = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Kysely streams through a cursor only when its dialect is given a cursor class; ours is not.
    if (typeof statement !== 'string') throw new Error('Streaming queries need a cursor class');
    return this.run<R>(statement, parameters);
  }

  private async run<R>(
    text: string,
    parameters: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> {
    // A COPY's rows are its one parameter (copy.ts).
    if (parameters[0] instanceof CopyRows) return sendCopy(this.client, text, parameters[0]);
    const result = await sendQuery<R & pg.QueryResultRow>(
      this.client,
      queryConfig(text, parameters),
    );
    return {
      // pg types the command as any text; Kysely reads only the ones it names.
      command: result.command as PostgresQueryResult<R>['command'],
      rowCount: result.rowCount ?? 0,
      rows: result.rows,
    };
  }

  release(): void {
    this.client.release();
  }
}
