import type {
  DocumentType,
  ImportResult,
  ParsedDocumentTypeCreate,
  ParsedDocumentTypeImportRecord,
  ParsedDocumentTypeUpdate,
} from '@console/contracts';
import { sql, type InsertObject, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { changedFields, recordEvent } from '../../outbox/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { toDocumentType } from './queries.ts';
import { documentTypeReferences } from './references.ts';

/**
 * Every write of document types. Each runs in one transaction and knows its actor, and records
 * its domain event in that transaction (outbox/outbox.ts): the event exists exactly when the
 * write does. Inputs come parsed by the contracts'
 * schemas: IDs valid, tags normalised, an empty validity period already null.
 */

type DocumentTypeFields = Omit<ParsedDocumentTypeCreate, 'id'>;

/** The stored columns of a document type (not its id, not the stamps). */
function columnsOf(fields: DocumentTypeFields) {
  return {
    display_name: fields.displayName,
    tags: fields.tags,
    api_references: JSON.stringify(fields.apiReferences),
    sequence: fields.sequence,
    valid_from: fields.validFrom,
    valid_to: fields.validTo,
    validity_period: fields.validityPeriod ? JSON.stringify(fields.validityPeriod) : null,
  };
}

function newRow(
  id: string,
  fields: DocumentTypeFields,
  actor: AuthenticatedUser,
): InsertObject<Database, 'document_types'> {
  return {
    id,
    ...columnsOf(fields),
    created_by: actor.email,
    updated_by: actor.email,
    updated_at: sql<Date>`now()`,
  };
}

/** POST api/documenttypes: 409 when the ID is taken. */
export async function createDocumentType(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  input: ParsedDocumentTypeCreate,
): Promise<DocumentType> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('document_types')
      .values(newRow(input.id, input, actor))
      .onConflict((onConflict) => onConflict.column('id').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw conflict(`A document type with ID ${input.id} already exists.`);
    const created = toDocumentType(row);
    await recordEvent(trx, {
      eventName: 'DocumentTypeCreated',
      metadata: {
        actor: actor.email,
        action: 'create',
        documentTypeId: input.id,
        target: { type: 'DocumentType', id: input.id, name: created.displayName },
        after: created,
      },
    });
    return created;
  });
}

/** PUT api/documenttypes/{id}: replaces every field but the ID; 404 when unknown. */
export async function updateDocumentType(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: string,
  input: ParsedDocumentTypeUpdate,
): Promise<DocumentType> {
  return db.transaction().execute(async (trx) => {
    const existing = await lockDocumentType(trx, id);
    const row = await trx
      .updateTable('document_types')
      .set({ ...columnsOf(input), updated_by: actor.email, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const before = toDocumentType(existing);
    const after = toDocumentType(row);
    await recordEvent(trx, {
      eventName: 'DocumentTypeUpdated',
      metadata: {
        actor: actor.email,
        action: 'update',
        documentTypeId: id,
        target: { type: 'DocumentType', id, name: after.displayName },
        changes: changedFields(before, after),
        before,
        after,
      },
    });
    return after;
  });
}

/** DELETE api/documenttypes/{id}: 404 when unknown, 409 while in use (see references.ts). */
export async function deleteDocumentType(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const existing = await lockDocumentType(trx, id);
    const references = await documentTypeReferences(trx, id);
    if (references.length > 0) {
      throw conflict(
        `Cannot delete document type ${id} because it is currently being used. Please remove references first.`,
        { references },
      );
    }
    await trx.deleteFrom('document_types').where('id', '=', id).execute();
    await recordEvent(trx, {
      eventName: 'DocumentTypeDeleted',
      metadata: {
        actor: actor.email,
        action: 'delete',
        documentTypeId: id,
        target: { type: 'DocumentType', id, name: existing.display_name },
        before: toDocumentType(existing),
      },
    });
  });
}

/**
 * POST api/documenttypes/import: one upsert by ID of every record, all or nothing. Each record
 * replaces every field of its document type (absent optional fields become empty); a record that
 * matches its row is not written, so `count` is the number of document types added or changed
 * and a second import of the same file writes nothing.
 */
export async function importDocumentTypes(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  records: readonly ParsedDocumentTypeImportRecord[],
): Promise<ImportResult> {
  if (records.length === 0) return { count: 0 };
  return db.transaction().execute(async (trx) => {
    // One statement whatever the count, the records as one JSON parameter: PostgreSQL parses
    // them faster than it binds eleven parameters per row, and there is no query to build.
    const input = records.map((record) => ({
      id: record.id,
      display_name: record.displayName,
      tags: record.tags,
      api_references: record.apiReferences,
      sequence: record.sequence,
      valid_from: record.validFrom,
      valid_to: record.validTo,
      validity_period: record.validityPeriod,
    }));
    // xmax is 0 on a row this statement inserted: the audit tells created from changed ids.
    const result = await sql<{ id: string; created: boolean }>`
      insert into document_types (id, display_name, tags, api_references, sequence, valid_from,
        valid_to, validity_period, created_by, updated_by, updated_at)
      select id, display_name, tags, api_references, sequence, valid_from, valid_to,
        validity_period, ${actor.email}, ${actor.email}, now()
      from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as input(id text,
        display_name text, tags text[], api_references jsonb, sequence integer,
        valid_from timestamptz, valid_to timestamptz, validity_period jsonb)
      on conflict (id) do update set
        display_name = excluded.display_name,
        tags = excluded.tags,
        api_references = excluded.api_references,
        sequence = excluded.sequence,
        valid_from = excluded.valid_from,
        valid_to = excluded.valid_to,
        validity_period = excluded.validity_period,
        updated_by = excluded.updated_by,
        updated_at = now()
      where (document_types.display_name, document_types.tags, document_types.api_references,
          document_types.sequence, document_types.valid_from, document_types.valid_to,
          document_types.validity_period)
        is distinct from (excluded.display_name, excluded.tags, excluded.api_references,
          excluded.sequence, excluded.valid_from, excluded.valid_to, excluded.validity_period)
      returning id, (xmax = 0) as created
    `.execute(trx);
    const count = result.rows.length;
    const idsWhere = (created: boolean) =>
      result.rows
        .filter((row) => row.created === created)
        .map((row) => row.id)
        .sort();
    await recordEvent(trx, {
      eventName: 'DocumentTypesImported',
      metadata: {
        actor: actor.email,
        action: 'import',
        count,
        records: records.length,
        target: { type: 'DocumentType', name: 'Document types import' },
        after: {
          count,
          records: records.length,
          created: idsWhere(true),
          changed: idsWhere(false),
        },
      },
    });
    return { count };
  });
}

/** The document type, locked until the transaction ends; 404 when unknown. */
async function lockDocumentType(trx: Kysely<Database>, id: string) {
  const existing = await trx
    .selectFrom('document_types')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!existing) throw notFound(`Document type ${id} not found.`);
  return existing;
}
