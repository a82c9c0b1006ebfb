import {
  canEditStorageName,
  type FormField,
  STORAGE_NAME_ADMIN_ONLY_MESSAGE,
  type FormFieldWrite,
} from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import { holdsRole, type AuthenticatedUser } from '../../auth/index.ts';
import { translateViolations, UNIQUE_VIOLATION } from '../../db/errors.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { changedFields, recordEvent } from '../../outbox/index.ts';
import { formFieldColumns, toFormField } from './queries.ts';

/**
 * Every write of the field catalogue (spec part 2, "Form fields"; docs/forms.md). Each runs in one
 * transaction, knows its actor and records its event there. Inputs come parsed by the contracts'
 * schemas: storage name trimmed and valid, tags normalised, options only on a Select.
 */

const nameTaken = (name: string) => conflict(`A field with storage name ${name} already exists.`);

/** POST /svc/formauthoring/fields: 409 when the storage name is taken, in any letter case. */
export async function createFormField(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  input: FormFieldWrite,
): Promise<FormField> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('form_fields')
      .values({
        ...formFieldColumns(input),
        created_by: actor.email,
        updated_by: actor.email,
        updated_at: sql<Date>`now()`,
      })
      // The one unique index is on lower(name).
      .onConflict((onConflict) => onConflict.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw nameTaken(input.name);
    const created = toFormField(row);
    await recordEvent(trx, {
      eventName: 'FormFieldCreated',
      metadata: {
        actor: actor.email,
        action: 'create',
        fieldId: created.id,
        name: created.name,
        target: { type: 'FormField', id: created.id, name: created.name },
        after: created,
      },
    });
    return created;
  });
}

/**
 * PUT /svc/formauthoring/fields/{id}: replaces every property; 404 when unknown. A new storage
 * name needs an admin, unless the stored one is invalid (spec 5, "Field dialog"); 409 when
 * another field has it. Forms and profiles keep what they stored under the old name.
 */
export async function updateFormField(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: number,
  input: FormFieldWrite,
): Promise<FormField> {
  return translateViolations({ [UNIQUE_VIOLATION]: () => nameTaken(input.name) }, () =>
    db.transaction().execute(async (trx) => {
      const existing = await lockFormField(trx, id);
      if (input.name !== existing.name) {
        if (!canEditStorageName('edit', holdsRole(actor.roles, 'admin'), existing.name)) {
          throw forbidden(STORAGE_NAME_ADMIN_ONLY_MESSAGE);
        }
        const taken = await trx
          .selectFrom('form_fields')
          .select('id')
          .where(sql`lower(name)`, '=', input.name.toLowerCase())
          .where('id', '<>', id)
          .executeTakeFirst();
        if (taken) throw nameTaken(input.name);
      }
      const row = await trx
        .updateTable('form_fields')
        .set({ ...formFieldColumns(input), updated_by: actor.email, updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const before = toFormField(existing);
      const after = toFormField(row);
      await recordEvent(trx, {
        eventName: 'FormFieldUpdated',
        metadata: {
          actor: actor.email,
          action: 'update',
          fieldId: id,
          name: after.name,
          target: { type: 'FormField', id, name: after.name },
          changes: changedFields(before, after, ['updatedAt']),
          before,
          after,
        },
      });
      return after;
    }),
  );
}

/**
 * DELETE /svc/formauthoring/fields/{id}: 404 when unknown. Forms that list the field keep its id
 * (a missing reference, shown in red by the form dialog until removed; spec 2).
 */
export async function deleteFormField(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  id: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const existing = await lockFormField(trx, id);
    await trx.deleteFrom('form_fields').where('id', '=', id).execute();
    await recordEvent(trx, {
      eventName: 'FormFieldDeleted',
      metadata: {
        actor: actor.email,
        action: 'delete',
        fieldId: id,
        name: existing.name,
        target: { type: 'FormField', id, name: existing.name },
        before: toFormField(existing),
      },
    });
  });
}

/** The field, locked until the transaction ends; 404 when unknown. */
async function lockFormField(trx: Kysely<Database>, id: number) {
  const existing = await trx
    .selectFrom('form_fields')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!existing) throw notFound(`Form field ${id} not found.`);
  return existing;
}
