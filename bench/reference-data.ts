import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { Pool as UndiciPool } from 'undici';
import { isoCountryList, type IsoCountry } from '../apps/server/src/db/seed/countries.ts';
import { accessTokenFor, median, ratio, verdict, withConsoleOnNewDatabase } from './lib.ts';

const PORT = 3211;
const DOCUMENT_TYPES = 10_000;
/** Rows per INSERT of the baseline, as the server's import writes them. */
const ROWS_PER_STATEMENT = 1000;
/**
 * Each import runs this often on an emptied table, after one untimed run (the first call of a
 * route compiles its validators, the first statement warms the caches); the median is reported.
 */
const IMPORT_RUNS = 21;
const LIST_RUNS = 20;
const ACTOR = 'admin@example.com';

/** One record of a document types import file, already in the form the server stores. */
interface DocumentTypeRecord {
  id: string;
  displayName: string;
  tags: string[];
  apiReferences: Record<string, string>;
  sequence: number | null;
  validFrom: string | null;
  validTo: string | null;
  validityPeriod: { years?: number; months?: number; days?: number } | null;
}

/**
 * Reference data through the HTTP API against a throwaway PostgreSQL database: import of the full
 * ISO country list and of 10,000 document types, and a list load of those 10,000 document types,
 * each against the same work done with plain multi-row SQL through `pg` in the same run.
 */
export async function benchReferenceData(): Promise<void> {
  await withConsoleOnNewDatabase(PORT, async ({ server, db }) => {
    const token = await accessTokenFor(server.url, ACTOR);
    // undici's own request rather than fetch, whose WHATWG layers cost the client about 0.9 ms
    // of an 8 ms import: the baseline's client is `pg`, as lean.
    const http = new UndiciPool(server.url, { connections: 1 });
    const api = async (path: string, body?: string) => {
      const response = await http.request({
        path,
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body,
      });
      return { status: response.statusCode, text: await response.body.text() };
    };
    const postImport = async (path: string, records: unknown[]): Promise<number> => {
      const response = await api(path, JSON.stringify(records));
      const body = JSON.parse(response.text) as { count?: number };
      if (response.status !== 200 || body.count !== records.length) {
        throw new Error(`POST ${path}: ${response.status} ${response.text}`);
      }
      return records.length;
    };

    // Scratch tables of the same shape for the baselines.
    await db.query('create table bench_countries (like countries including all)');
    await db.query('create table bench_document_types (like document_types including all)');

    /**
     * Median times of one import into an emptied table: by `pg` (baseline), by the console.
     * The two alternate, so that a slower moment of the machine falls on both.
     */
    const timeImports = async (
      empty: { baseline: string; console: string },
      baseline: () => Promise<unknown>,
      post: () => Promise<unknown>,
    ) => {
      const timeOnEmptyTable = (emptyTable: string, run: () => Promise<unknown>) => async () => {
        await db.query(emptyTable);
        return time(run);
      };
      const timeBaseline = timeOnEmptyTable(empty.baseline, baseline);
      const timeConsole = timeOnEmptyTable(empty.console, post);
      await timeBaseline();
      await timeConsole();
      const samples = { baseline: [] as number[], console: [] as number[] };
      for (let run = 0; run < IMPORT_RUNS; run += 1) {
        samples.baseline.push(await timeBaseline());
        samples.console.push(await timeConsole());
      }
      return { baseline: median(samples.baseline), console: median(samples.console) };
    };

    // (1) The full ISO country list.
    const countries = isoCountryList();
    const countryImports = await timeImports(
      { baseline: 'delete from bench_countries', console: 'delete from countries' },
      () => upsertCountries(db, countries),
      () => postImport('/api/countries/import', countries),
    );
    report(
      `POST /api/countries/import (${countries.length} countries, median of ${IMPORT_RUNS})`,
      'pg multi-row upsert',
      countryImports.baseline,
      countryImports.console,
      2,
    );

    // (2) 10,000 document types.
    const documentTypes = generateDocumentTypes(DOCUMENT_TYPES);
    const payloadBytes = Buffer.byteLength(JSON.stringify(documentTypes));
    const documentTypeImports = await timeImports(
      { baseline: 'truncate bench_document_types', console: 'truncate document_types' },
      () => insertDocumentTypes(db, documentTypes),
      () => postImport('/api/documenttypes/import', documentTypes),
    );
    report(
      `POST /api/documenttypes/import (${DOCUMENT_TYPES} document types, ${(payloadBytes / 1e6).toFixed(1)} MB, median of ${IMPORT_RUNS})`,
      `pg insert x${ROWS_PER_STATEMENT}`,
      documentTypeImports.baseline,
      documentTypeImports.console,
      2,
    );

    // (3) The list of those 10,000 document types: the body is read, not parsed, so the client
    // adds little. One untimed warm-up call each, which also checks the row count.
    const selectAll = async () => {
      const { rows } = await db.query('select * from document_types');
      return JSON.stringify(rows);
    };
    const getList = async () => {
      const response = await api('/api/documenttypes');
      if (response.status !== 200) throw new Error(`GET /api/documenttypes: ${response.status}`);
      return response.text;
    };
    for (const load of [selectAll, getList]) {
      const rows = (JSON.parse(await load()) as unknown[]).length;
      if (rows !== DOCUMENT_TYPES) throw new Error(`Expected ${DOCUMENT_TYPES} rows, got ${rows}`);
    }
    const listBaseline = await medianOf(LIST_RUNS, () => time(selectAll));
    const listConsole = await medianOf(LIST_RUNS, () => time(getList));
    report(
      `GET /api/documenttypes (${DOCUMENT_TYPES} rows, median of ${LIST_RUNS})`,
      'pg select + JSON',
      listBaseline,
      listConsole,
    );
    await http.close();
  });
}

/** The server's import statement for countries, written by hand: one upsert of every row. */
async function upsertCountries(db: pg.Client, countries: IsoCountry[]): Promise<void> {
  const values: unknown[] = [];
  const tuples = countries.map((country) => {
    const base = values.push(country.id, country.alpha2, country.alpha3, country.name, ACTOR);
    return `($${base - 4}, $${base - 3}, $${base - 2}, $${base - 1}, $${base}, $${base}, now())`;
  });
  await db.query(
    `insert into bench_countries (id, alpha2, alpha3, name, created_by, updated_by, updated_at)
     values ${tuples.join(', ')}
     on conflict (id) do update set alpha2 = excluded.alpha2, alpha3 = excluded.alpha3,
       name = excluded.name, updated_by = excluded.updated_by, updated_at = now()
     where (bench_countries.alpha2, bench_countries.alpha3, bench_countries.name)
       is distinct from (excluded.alpha2, excluded.alpha3, excluded.name)`,
    values,
  );
}

/** Plain multi-row inserts of the document types, in one transaction like the import. */
async function insertDocumentTypes(db: pg.Client, records: DocumentTypeRecord[]): Promise<void> {
  await db.query('begin');
  try {
    for (let start = 0; start < records.length; start += ROWS_PER_STATEMENT) {
      const values: unknown[] = [];
      const tuples = records.slice(start, start + ROWS_PER_STATEMENT).map((record) => {
        const first = values.length + 1;
        values.push(
          record.id,
          record.displayName,
          record.tags,
          JSON.stringify(record.apiReferences),
          record.sequence,
          record.validFrom,
          record.validTo,
          record.validityPeriod ? JSON.stringify(record.validityPeriod) : null,
          ACTOR,
        );
        const placeholders = Array.from({ length: 9 }, (_, offset) => `$${first + offset}`);
        return `(${placeholders.join(', ')}, $${first + 8}, now())`;
      });
      await db.query(
        `insert into bench_document_types (id, display_name, tags, api_references, sequence,
           valid_from, valid_to, validity_period, created_by, updated_by, updated_at)
         values ${tuples.join(', ')}`,
        values,
      );
    }
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
}

/** Valid document types bench_doc_00001..., with tags, API references and a validity period. */
function generateDocumentTypes(count: number): DocumentTypeRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const number = String(index + 1).padStart(5, '0');
    return {
      id: `bench_doc_${number}`,
      displayName: `Bench document ${number}`,
      tags: ['bench', `group_${index % 20}`, index % 2 === 0 ? 'identity' : 'address'],
      apiReferences: {
        registry: `REG-${number}`,
        ...(index % 3 === 0 ? { scanner: `scan-${index % 50}` } : {}),
      },
      sequence: index % 4 === 0 ? index : null,
      validFrom: index % 5 === 0 ? '2024-01-01T00:00:00.000Z' : null,
      validTo: index % 10 === 0 ? '2030-12-31T00:00:00.000Z' : null,
      validityPeriod: { years: index % 10, months: index % 12, days: index % 31 },
    };
  });
}

/** Milliseconds one call takes. */
async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** Median of `runs` sequential measurements. */
async function medianOf(runs: number, measure: () => Promise<number>): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) samples.push(await measure());
  return median(samples);
}

function report(
  title: string,
  baselineLabel: string,
  baselineMs: number,
  consoleMs: number,
  targetRatio?: number,
) {
  console.log(title);
  console.log(`  ${baselineLabel.padEnd(20)} : ${baselineMs.toFixed(1)} ms`);
  console.log(`  ${'console'.padEnd(20)} : ${consoleMs.toFixed(1)} ms`);
  console.log(`  ${'ratio'.padEnd(20)} : ${ratio(consoleMs, baselineMs)}x`);
  if (targetRatio !== undefined) {
    const met = consoleMs <= targetRatio * baselineMs;
    console.log(`  ${'target'.padEnd(20)} : ≤ ${targetRatio}x: ${verdict(met)}`);
  }
}
