import {
  canEditField,
  ownValue,
  PROFILE_FORM_NAMES,
  profileKeyOf,
  SUBMISSION_MESSAGES,
  trimValues,
  validateSubmission,
  type FormField,
  type SubmissionErrors,
} from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { recordEvent } from '../../outbox/index.ts';
import type { FormKey } from '../forms/queries.ts';
import { findFormDefinition } from '../forms/queries.ts';
import type { UploadedFile } from './multipart.ts';
import {
  findProfileForm,
  findProfileOwner,
  knownReferenceIds,
  type ProfileKey,
  stringEntries,
} from './queries.ts';

/**
 * The submissions: the test submission of the forms service (validated, nothing stored) and the
 * profile submission (validated against the stored profile, then stored with its files and its
 * event in one transaction). Values are validated by the contracts' validateSubmission.
 */

/** What a submission answers: its trimmed values, or the problems by label. */
export type SubmissionOutcome =
  { ok: true; submittedData: Record<string, string> } | { ok: false; errors: SubmissionErrors };

/** A form's fields, each once, in the form's order. */
function distinctFields(fields: readonly FormField[]): FormField[] {
  const seen = new Set<number>();
  return fields.filter((field) => {
    if (seen.has(field.id)) return false;
    seen.add(field.id);
    return true;
  });
}

/**
 * POST /svc/formauthoring/{name or formId}/submit: the values checked against the form as the
 * caller would submit it; nothing is stored. 404 when there is no such form.
 */
export async function testSubmission(
  db: Kysely<Database>,
  user: AuthenticatedUser,
  key: FormKey,
  values: Record<string, string>,
): Promise<SubmissionOutcome> {
  const definition = await findFormDefinition(db, key);
  if (!definition) {
    throw notFound(`Form ${'id' in key ? key.id : key.name} not found.`);
  }
  const fields = distinctFields(definition.field_definitions);
  const known = await knownReferenceIds(db, fields, values);
  const errors = validateSubmission(fields, values, { roles: user.roles, ...known });
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, submittedData: trimValues(values) };
}

/** A problem of a submission: its label (a display name, or a key) and its message. */
type Problem = [label: string, message: string];

/**
 * The problems of the files of a submission: a file for a name the form does not have, for a
 * field that takes no file, or for one the caller may not change.
 */
function fileProblems(
  fields: readonly FormField[],
  files: readonly UploadedFile[],
  roles: readonly string[],
): Problem[] {
  return files.flatMap((file): Problem[] => {
    const field = fields.find((candidate) => candidate.name === file.field);
    if (!field) return [[file.field, SUBMISSION_MESSAGES.unknownField]];
    if (field.type !== 'FileUpload') {
      return [[field.displayName, SUBMISSION_MESSAGES.notAFile(field.displayName)]];
    }
    if (!canEditField(field, roles)) {
      return [[field.displayName, SUBMISSION_MESSAGES.notEditable(field.displayName)]];
    }
    return [];
  });
}

/**
 * `errors` with each of `more` added under its label, once. Gathered in a Map: a label is a
 * display name, any text (`constructor` too), never looked up on an object.
 */
function withProblems(errors: SubmissionErrors, more: readonly Problem[]): SubmissionErrors {
  const merged = new Map(Object.entries(errors).map(([label, messages]) => [label, [...messages]]));
  for (const [label, message] of more) {
    const messages = merged.get(label);
    if (!messages) merged.set(label, [message]);
    else if (!messages.includes(message)) messages.push(message);
  }
  return Object.fromEntries(merged);
}

export interface ProfileSubmission {
  key: ProfileKey;
  /** FormData's values by storage name (untrimmed). */
  values: Record<string, string>;
  files: readonly UploadedFile[];
}

/**
 * POST svc/formusage/submit: validates the values against the profile form (fields the caller may
 * not edit keep their stored value), then, in one transaction with the profile row locked,
 * replaces the values of the form's fields the caller may edit (others kept; a value is stored
 * under the field's aliasFor when it names one, and an empty value is removed), stores each file
 * in place of the field's previous one, stamps profile_updated_at/_by and records
 * TenantProfileUpdated or EntityProfileUpdated with the names of the changed values and, for the
 * audit log, those values before and after (the other values stay out of the event). A FileUpload field's value is its file's name: the new file's, else the stored one.
 */
export async function submitProfile(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  submission: ProfileSubmission,
): Promise<SubmissionOutcome> {
  return db.transaction().execute(async (trx) => {
    const owner = await findProfileOwner(trx, actor, submission.key, true);
    const form = await findProfileForm(trx, owner.target);
    if (!form)
      throw notFound(`The profile form ${PROFILE_FORM_NAMES[owner.target]} does not exist.`);
    const fields = distinctFields(form.field_definitions);
    const stored = Object.fromEntries(stringEntries(owner.profile));

    // A FileUpload field's value comes from its file, never from FormData. The records built here
    // have no prototype: a storage name may be `__proto__` or `constructor`.
    const values = record(submission.values);
    const uploads = new Map(submission.files.map((file) => [file.field, file]));
    for (const field of fields) {
      if (field.type !== 'FileUpload') continue;
      const upload = uploads.get(field.name);
      if (upload && canEditField(field, actor.roles)) values[field.name] = upload.fileName;
      else if (canEditField(field, actor.roles)) {
        const current = ownValue(stored, profileKeyOf(field));
        if (current === undefined) delete values[field.name];
        else values[field.name] = current;
      } else delete values[field.name];
    }

    const known = await knownReferenceIds(trx, fields, values);
    const errors = withProblems(
      validateSubmission(fields, values, { roles: actor.roles, ...known, stored }),
      fileProblems(fields, submission.files, actor.roles),
    );
    if (Object.keys(errors).length > 0) return { ok: false, errors };

    const trimmed = trimValues(values);
    // A profile row written by other means may hold anything: only an object is kept as such.
    const before = isObject(owner.profile) ? owner.profile : {};
    const after = record<unknown>(before);
    const submittedData = record<string>({});
    const changed = new Set<string>();
    for (const field of fields) {
      if (!canEditField(field, actor.roles)) continue;
      const key = profileKeyOf(field);
      const value = ownValue(trimmed, field.name) ?? '';
      if (value === '') {
        delete after[key];
      } else {
        after[key] = value;
        submittedData[field.name] = value;
      }
      if (after[key] !== (Object.hasOwn(before, key) ? before[key] : undefined)) changed.add(key);
    }
    for (const file of uploads.values()) {
      const field = fields.find((candidate) => candidate.name === file.field);
      if (field) changed.add(profileKeyOf(field));
    }

    await writeProfile(trx, owner, after, actor.email);
    for (const file of uploads.values()) {
      const field = fields.find((candidate) => candidate.name === file.field);
      if (field) await storeFile(trx, owner, profileKeyOf(field), file, actor.email);
    }
    const names = [...changed].sort();
    await recordEvent(trx, {
      eventName: owner.target === 'Tenant' ? 'TenantProfileUpdated' : 'EntityProfileUpdated',
      tenantId: owner.tenantId,
      entityId: owner.partyEntityId,
      metadata: {
        actor: actor.email,
        action: 'update',
        tenantId: owner.tenantId,
        ...(owner.partyEntityId === null ? {} : { entityId: owner.partyEntityId }),
        formName: form.name,
        changed: names,
        target: {
          type: 'Profile',
          id: owner.partyEntityId ?? String(owner.tenantId),
          name: form.name,
        },
        before: pick(before, names),
        after: pick(after, names),
      },
    });
    return { ok: true, submittedData };
  });
}

/** The own values of `keys` in `values` (a key it lacks is left out), without a prototype. */
function pick(values: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked = record<unknown>({});
  for (const key of keys) if (Object.hasOwn(values, key)) picked[key] = values[key];
  return picked;
}

/** A copy of `entries` without a prototype, so that any key is an own property. */
const record = <Value = string>(entries: Readonly<Record<string, Value>>): Record<string, Value> =>
  Object.assign(Object.create(null) as Record<string, Value>, entries);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type Owner = Awaited<ReturnType<typeof findProfileOwner>>;

async function writeProfile(
  trx: Kysely<Database>,
  owner: Owner,
  profile: Record<string, unknown>,
  actor: string,
): Promise<void> {
  const values = {
    profile: JSON.stringify(profile),
    profile_updated_at: sql<Date>`now()`,
    profile_updated_by: actor,
  };
  if (owner.target === 'Tenant') {
    await trx.updateTable('tenants').set(values).where('id', '=', owner.tenantId).execute();
  } else {
    await trx
      .updateTable('entities')
      .set(values)
      .where('party_entity_id', '=', owner.partyEntityId!)
      .execute();
  }
}

/** Stores `file` as the file of `fieldName`, in place of the one it had. */
async function storeFile(
  trx: Kysely<Database>,
  owner: Owner,
  fieldName: string,
  file: UploadedFile,
  actor: string,
): Promise<void> {
  const ownerColumns =
    owner.target === 'Tenant'
      ? { tenant_id: owner.tenantId, party_entity_id: null }
      : { tenant_id: null, party_entity_id: owner.partyEntityId };
  await trx
    .deleteFrom('profile_files')
    .$call((query) =>
      owner.target === 'Tenant'
        ? query.where('tenant_id', '=', owner.tenantId)
        : query.where('party_entity_id', '=', owner.partyEntityId),
    )
    .where(sql`lower(field_name)`, '=', fieldName.toLowerCase())
    .execute();
  await trx
    .insertInto('profile_files')
    .values({
      ...ownerColumns,
      field_name: fieldName,
      file_name: file.fileName,
      content_type: file.contentType,
      size: file.size,
      content: file.content,
      uploaded_by: actor,
    })
    .execute();
}
