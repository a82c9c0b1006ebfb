import type { ParsedFormDefinitionWrite } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { changedFields, recordEvent } from '../../outbox/index.ts';
import { problemsBody } from '../errors.ts';
import { toStoredDefinition } from './queries.ts';

/**
 * Every write of form definitions (spec part 2, "Forms service"; docs/forms.md). Each runs in one
 * transaction, knows its actor and records its event there. Inputs come parsed by the contracts'
 * schemas: name valid, field ids distinct, group order without repeats.
 */

/** What a create or an update stores: every property but the id. */
type FormDefinitionWrite = Omit<ParsedFormDefinitionWrite, 'id'>;

const nameTaken = (name: string) => conflict(`A form named ${name} already exists.`);
export const formNotFound = (name: string) => notFound(`Form ${name} not found.`);

/** The stored columns of a definition (not its name, id or stamps). */
function columnsOf(input: FormDefinitionWrite) {
  return {
    description: input.description,
    field_ids: input.fields,
    ui_group_order: input.uiGroupOrder,
    col_span_override: input.colSpanOverride,
  };
}

/** POST /svc/formauthoring: 409 when the name is taken, in any letter case. */
export async function createForm(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  input: FormDefinitionWrite,
): Promise<{ name: string }> {
  return db.transaction().execute(async (trx) => {
    await checkFieldsExist(trx, input.fields);
    const row = await trx
      .insertInto('forms')
      .values({
        name: input.name,
        ...columnsOf(input),
        created_by: actor.email,
        updated_by: actor.email,
        updated_at: sql<Date>`now()`,
      })
      // The one unique index is on lower(name).
      .onConflict((onConflict) => onConflict.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw nameTaken(input.name);
    await recordEvent(trx, {
      eventName: 'FormCreated',
      metadata: {
        actor: actor.email,
        action: 'create',
        formId: row.id,
        name: row.name,
        target: { type: 'Form', id: row.id, name: row.name },
        after: toStoredDefinition(row),
      },
    });
    return { name: row.name };
  });
}

/**
 * PUT /svc/formauthoring/{name}: replaces the definition of the form `name` (any letter case);
 * the name is locked (spec 2, edit mode): a name in the body must be the URL's, ignoring case,
 * and the stored name keeps its spelling. 404 when unknown.
 */
export async function updateForm(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  name: string,
  input: FormDefinitionWrite & { id?: number | undefined },
): Promise<{ name: string }> {
  if (input.name.toLowerCase() !== name.toLowerCase()) {
    throw badRequest(`The name cannot be changed: the body names ${input.name}, the URL ${name}`);
  }
  return db.transaction().execute(async (trx) => {
    const existing = await lockForm(trx, name);
    if (input.id !== undefined && input.id !== existing.id) {
      throw badRequest(
        `The id cannot be changed: the body names ${input.id}, the form ${existing.name} is ${existing.id}`,
      );
    }
    await checkFieldsExist(trx, input.fields);
    const row = await trx
      .updateTable('forms')
      .set({ ...columnsOf(input), updated_by: actor.email, updated_at: sql<Date>`now()` })
      .where('id', '=', existing.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const before = toStoredDefinition(existing);
    const after = toStoredDefinition(row);
    await recordEvent(trx, {
      eventName: 'FormUpdated',
      metadata: {
        actor: actor.email,
        action: 'update',
        formId: row.id,
        name: row.name,
        target: { type: 'Form', id: row.id, name: row.name },
        changes: changedFields(before, after, ['updatedAt']),
        before,
        after,
      },
    });
    return { name: row.name };
  });
}

/** DELETE /svc/formauthoring/{name}: 404 when unknown. Its fields stay in the catalogue. */
export async function deleteForm(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  name: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const existing = await lockForm(trx, name);
    await trx.deleteFrom('forms').where('id', '=', existing.id).execute();
    await recordEvent(trx, {
      eventName: 'FormDeleted',
      metadata: {
        actor: actor.email,
        action: 'delete',
        formId: existing.id,
        name: existing.name,
        target: { type: 'Form', id: existing.id, name: existing.name },
        before: toStoredDefinition(existing),
      },
    });
  });
}

/** The form named `name` in any letter case, locked until the transaction ends; 404 when unknown. */
async function lockForm(trx: Kysely<Database>, name: string) {
  const existing = await trx
    .selectFrom('forms')
    .selectAll()
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .forUpdate()
    .executeTakeFirst();
  if (!existing) throw formNotFound(name);
  return existing;
}

/**
 * 400 naming each id of `fields` that names no field (`fields.{index}`). The fields found stay
 * share-locked until the transaction ends, so none is deleted between this check and the write.
 * A form may keep an id whose field was deleted after it was saved (a missing reference), but it
 * cannot be saved with one.
 */
async function checkFieldsExist(trx: Kysely<Database>, fields: readonly number[]): Promise<void> {
  if (fields.length === 0) return;
  const rows = await trx
    .selectFrom('form_fields')
    .select('id')
    .where('id', '=', sql<number>`any(${[...fields]}::integer[])`)
    .forShare()
    .execute();
  const known = new Set(rows.map((row) => row.id));
  const problems = fields.flatMap((id, index) =>
    known.has(id) ? [] : [{ path: `fields.${index}`, message: `Field ${id} does not exist.` }],
  );
  if (problems.length > 0) {
    const { message, errors } = problemsBody(problems);
    throw badRequest(message, { errors });
  }
}
