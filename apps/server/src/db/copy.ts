import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { CompiledQuery, type PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * `COPY … FROM STDIN` through Kysely, so that it runs on a transaction's own connection like any
 * other statement: the rows travel as the query's one parameter, a CopyRows, which the pool's
 * client (prepared-statements.ts) streams to PostgreSQL in COPY's text format instead of binding
 * it. PostgreSQL reads 50,000 ratings rows by COPY in about half the time of one INSERT from
 * jsonb_to_recordset, and a third of json_to_recordset's (docs/architecture.md, "Bulk writes").
 */

/** A value of a COPY row: text, a number, or null (`\N`). */
export type CopyValue = string | number | null;

/** The rows of a COPY, made as PostgreSQL reads them (the caller validates them first). */
export class CopyRows {
  constructor(readonly rows: Iterable<readonly CopyValue[]>) {}
}

/** The statement that copies `rows` into `columns` of `table` (names as written in SQL). */
export function copyInto(
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly CopyValue[]>,
): CompiledQuery {
  return CompiledQuery.raw(`copy ${table} (${columns.join(', ')}) from stdin`, [
    new CopyRows(rows),
  ]);
}

/** Escapes of COPY's text format: a backslash, and the characters that end a value or a row. */
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const TO_ESCAPE = /[\\\t\n\r]/g;
/** The same characters, to test for: most values have none, and are sent as they are. */
const HAS_ESCAPE = /[\\\t\n\r]/;

function copyText(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return HAS_ESCAPE.test(value)
    ? value.replace(TO_ESCAPE, (character) => ESCAPES[character] ?? character)
    : value;
}

/** Lines joined into chunks of about this many characters: one write each. */
const CHUNK_CHARACTERS = 64 * 1024;

function* chunksOf(rows: Iterable<readonly CopyValue[]>): Generator<string> {
  let chunk = '';
  for (const row of rows) {
    for (let column = 0; column < row.length; column++) {
      chunk += (column === 0 ? '' : '\t') + copyText(row[column]!);
    }
    chunk += '\n';
    if (chunk.length >= CHUNK_CHARACTERS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** Runs `text` (a COPY FROM STDIN) on `client` with `rows`; answers the rows copied. */
export async function sendCopy(
  client: pg.ClientBase,
  text: string,
  { rows }: CopyRows,
): Promise<PostgresQueryResult<never>> {
  const rowCount = await copyFromStdin(client, text, chunksOf(rows));
  // COPY FROM inserts: Kysely counts the rows of an INSERT (numAffectedRows).
  return { command: 'INSERT', rowCount, rows: [] };
}

/**
 * Runs `text` (a COPY FROM STDIN) on `client`, sending `chunks` of COPY text as the stream takes
 * them; answers the rows copied. A chunk that cannot be made (an error of `chunks`) ends the COPY
 * with that error.
 */
export async function copyFromStdin(
  client: pg.ClientBase,
  text: string,
  chunks: Iterable<string> | AsyncIterable<string>,
): Promise<number> {
  const stream = client.query(copyFrom(text));
  const copied = finished(stream);
  try {
    for await (const chunk of chunks) {
      if (!stream.write(chunk)) await once(stream, 'drain');
    }
    stream.end();
  } catch (error) {
    // PostgreSQL drops the rows sent so far; the caller's transaction rolls back.
    stream.destroy();
    await copied.catch(() => undefined);
    throw error;
  }
  await copied;
  return stream.rowCount;
}
