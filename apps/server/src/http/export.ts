import { PassThrough, Readable } from 'node:stream';
import {
  CSV_BOM,
  csvRecord,
  EXPORT_CONTENT_TYPES,
  exportFileName,
  type ExportFormat,
  type ExportValue,
} from '@console/contracts';
import type { FastifyReply } from 'fastify';
import {
  sql,
  type Compilable,
  type Kysely,
  type OperationNodeSource,
  type QueryResult,
} from 'kysely';
import type { Database } from '../db/schema.ts';
import { HttpError } from './errors.ts';

/**
 * Whole lists as files (issue 31, docs/architecture.md "Exports"): a list's own query, with its
 * filters and order but without paging, read through a database cursor a batch at a time and
 * written as CSV (RFC 4180, UTF-8 with a BOM, formulas neutralised: contracts/exports.ts) or
 * xlsx (ExcelJS's streaming writer), with back-pressure: the next batch is fetched only once the
 * client has taken the last one, so memory stays flat whatever the list's size.
 */

/** One column of an export: its header and its cell for a row of the list's query. */
export interface ExportColumn<Row> {
  header: string;
  value(row: Row): ExportValue;
}

/** A select of Kysely's (it builds the cursor's statement with its parameters). */
export type ListQuery<Row> = Compilable<Row> & OperationNodeSource;

/** What a list's export route answers: the rows to write and how. */
export interface ListExport<Row> {
  /** What the list is: the file name starts with it (`tenants-2026-11-28T1230Z.csv`). */
  name: string;
  /** The file name when a spec fixes it (the FATF screen's `fatf-data-{date}.xlsx`). */
  fileName?: string;
  /** The xlsx sheet's name, when it is not `name`. */
  sheetName?: string;
  format: ExportFormat;
  db: Kysely<Database>;
  /** The list's query under the request's filters, in the list's order, without paging. */
  query: ListQuery<Row>;
  columns: readonly ExportColumn<Row>[];
}

/**
 * Rows per round trip: large enough that the round trips cost little (1,000 rows of events are
 * a few hundred kB), small enough that a batch is a small part of the server's memory.
 */
export const EXPORT_BATCH_ROWS = 1000;

/**
 * Exports one instance streams at once. Each holds one of the pool's connections while it runs
 * (DATABASE_POOL_MAX, 20 by default), which the lists and writes must keep: one more is a 503
 * with Retry-After.
 */
export const EXPORTS_AT_ONCE_MAX = 4;
const EXPORTS_RETRY_AFTER_SECONDS = 10;
/** Exports streaming now, per database (tests run several apps in one process). */
const runningExports = new WeakMap<Kysely<Database>, number>();

/** How long an export waits for its client to take a batch before it is given up. */
const EXPORT_STALL_LIMIT = '2min';

/** Excel's limits: rows per sheet (the header included) and characters per cell. */
const XLSX_SHEET_ROWS = 1_048_576;
const XLSX_CELL_CHARACTERS = 32_767;

/**
 * The rows of `query`, a batch at a time, from a cursor in one read-only REPEATABLE READ
 * transaction (one snapshot from the first row to the last). Leaving the loop early (the client
 * went away) rolls the transaction back and frees the connection.
 */
async function* cursorBatches<Row>(
  db: Kysely<Database>,
  query: ListQuery<Row>,
): AsyncGenerator<Row[], void, undefined> {
  // Counted from the first call, before any await: the check in sendExport and this count are
  // one step, so no two requests both see the last free place.
  runningExports.set(db, (runningExports.get(db) ?? 0) + 1);
  try {
    yield* cursorRows(db, query);
  } finally {
    runningExports.set(db, (runningExports.get(db) ?? 1) - 1);
  }
}

async function* cursorRows<Row>(
  db: Kysely<Database>,
  query: ListQuery<Row>,
): AsyncGenerator<Row[], void, undefined> {
  const trx = await db
    .startTransaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute();
  let committed = false;
  let pending: Promise<QueryResult<Row>> | undefined;
  try {
    // A client that stops reading holds the transaction (and its snapshot, which keeps vacuum
    // from cleaning up) only this long between two batches: PostgreSQL then ends the session.
    await sql`set local idle_in_transaction_session_timeout = ${sql.lit(EXPORT_STALL_LIMIT)}`.execute(
      trx,
    );
    await sql`declare export_rows no scroll cursor for ${query}`.execute(trx);
    const fetch = sql<Row>`fetch forward ${sql.raw(String(EXPORT_BATCH_ROWS))} from export_rows`;
    // The next batch is asked for before this one is written: PostgreSQL reads it meanwhile,
    // instead of the two taking turns (about 1.7x COPY's time when they did). Two batches at most
    // are held.
    pending = fetch.execute(trx);
    while (pending) {
      const { rows }: QueryResult<Row> = await pending;
      pending = rows.length === EXPORT_BATCH_ROWS ? fetch.execute(trx) : undefined;
      if (rows.length > 0) yield rows;
    }
    await trx.commit().execute();
    committed = true;
  } finally {
    // A batch asked for when the client left: its answer (or failure) is of no use.
    await pending?.catch(() => undefined);
    // Kysely frees the connection even when the rollback fails (a connection that broke).
    if (!committed) await trx.rollback().execute();
  }
}

/** The CSV file: BOM and header, then one chunk of text per batch. */
async function* csvChunks<Row>(
  batches: AsyncIterable<Row[]>,
  columns: readonly ExportColumn<Row>[],
): AsyncGenerator<string, void, undefined> {
  yield CSV_BOM + csvRecord(columns.map((column) => column.header));
  const values: ExportValue[] = new Array<ExportValue>(columns.length);
  for await (const rows of batches) {
    let chunk = '';
    for (const row of rows) {
      for (let index = 0; index < columns.length; index++) {
        values[index] = (columns[index] as ExportColumn<Row>).value(row);
      }
      chunk += csvRecord(values);
    }
    yield chunk;
  }
}

/** An xlsx cell: text within Excel's limit per cell (a longer text would make the file invalid). */
function xlsxCell(value: ExportValue): ExportValue {
  return typeof value === 'string' && value.length > XLSX_CELL_CHARACTERS
    ? value.slice(0, XLSX_CELL_CHARACTERS)
    : value;
}

/**
 * The xlsx file, written into `output` by ExcelJS's streaming writer (inline strings, no shared
 * string table kept in memory): a sheet named after the list with a frozen header row, another
 * sheet after each 1,048,575 rows (Excel's limit). Values stay as they are: a text cell is never
 * run as a formula. Waits for `output` to drain after each batch, so that the rows do not pile up
 * in ExcelJS's buffers.
 */
async function writeXlsx<Row>(
  output: PassThrough,
  name: string,
  batches: AsyncIterable<Row[]>,
  columns: readonly ExportColumn<Row>[],
): Promise<void> {
  // Loaded with the first xlsx export, not with the server: ExcelJS takes a third of a second.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  const headers = columns.map((column) => column.header);
  let sheets = 0;
  const addSheet = () => {
    sheets += 1;
    const sheet = workbook.addWorksheet(sheets === 1 ? name : `${name} (${sheets})`, {
      views: [{ state: 'frozen', ySplit: 1 }],
    });
    const header = sheet.addRow(headers);
    header.font = { bold: true };
    header.commit();
    return sheet;
  };
  let sheet = addSheet();
  let rowsInSheet = 1;
  for await (const rows of batches) {
    for (const row of rows) {
      if (rowsInSheet === XLSX_SHEET_ROWS) {
        sheet.commit();
        sheet = addSheet();
        rowsInSheet = 1;
      }
      sheet.addRow(columns.map((column) => xlsxCell(column.value(row)))).commit();
      rowsInSheet += 1;
    }
    if (output.writableNeedDrain) await drainedOrClosed(output);
    if (output.destroyed) return;
  }
  sheet.commit();
  await workbook.commit();
}

/** Waits until `stream` wants more or has closed (the client went away). */
function drainedOrClosed(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * Answers the export: reads the first batch before the answer starts, so that a failure there
 * (a database that is down) is still an error answer, then streams the file. A failure later can
 * only cut the download short (its status is sent), which the browser reports as a failed
 * download; it is logged.
 */
export async function sendExport<Row>(
  reply: FastifyReply,
  list: ListExport<Row>,
  now = new Date(),
): Promise<FastifyReply> {
  if ((runningExports.get(list.db) ?? 0) >= EXPORTS_AT_ONCE_MAX) {
    reply.header('retry-after', String(EXPORTS_RETRY_AFTER_SECONDS));
    throw new HttpError(503, 'Too many exports are running. Please try again shortly.');
  }
  const batches = cursorBatches(list.db, list.query);
  const first = await batches.next();
  const rest: AsyncIterable<Row[]> = {
    async *[Symbol.asyncIterator]() {
      if (first.done) return;
      yield first.value;
      yield* batches;
    },
  };
  const body = list.format === 'csv' ? csvBody(rest, list.columns) : xlsxBody(reply, list, rest);
  // However the answer ends (a client that left before the body was read included), the cursor's
  // transaction ends with it; after a whole file this finds it ended already.
  body.once('close', () => void batches.return(undefined).catch(() => undefined));
  const fileName = list.fileName ?? exportFileName(list.name, list.format, now);
  return reply
    .code(200)
    .type(EXPORT_CONTENT_TYPES[list.format])
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

function csvBody<Row>(batches: AsyncIterable<Row[]>, columns: readonly ExportColumn<Row>[]) {
  // Not object mode: the high-water mark counts bytes, so one batch's text is read ahead at most.
  return Readable.from(csvChunks(batches, columns), { objectMode: false });
}

function xlsxBody<Row>(reply: FastifyReply, list: ListExport<Row>, batches: AsyncIterable<Row[]>) {
  const output = new PassThrough();
  writeXlsx(output, list.sheetName ?? list.name, batches, list.columns).catch((error: unknown) => {
    reply.log.error({ err: error }, 'xlsx export failed');
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return output;
}
