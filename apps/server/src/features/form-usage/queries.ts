import {
  canViewField,
  PROFILE_FORM_NAMES,
  PROFILE_TARGETS,
  profileKeyOf,
  referencedIds,
  type FormDefinition,
  type FormField,
  type Profile,
  type ProfileTarget,
} from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import { holdsRole, type AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { toFormField } from '../form-fields/queries.ts';
import { findFormDefinition } from '../forms/queries.ts';
import { formGroups } from './rendering.ts';

/** Reads of the form usage calls: catalogue groups, reference ids, profiles and their files. */

/** Only the string values of a JSON object (rows written by the platform may hold anything). */
export function stringEntries(value: unknown): [string, string][] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).filter((entry): entry is [string, string] => {
    return typeof entry[1] === 'string';
  });
}

/** The fields of the catalogue in one UI group (GET /svc/formusage/{group}/fieldgroup without a form). */
export async function catalogueGroupFields(
  db: Kysely<Database>,
  group: string,
): Promise<FormField[]> {
  const rows = await db
    .selectFrom('form_fields')
    .selectAll()
    .where('ui_group', '=', group)
    .execute();
  return rows.map(toFormField);
}

/**
 * The country and document type ids of a submission that exist: only the ids it names are looked
 * up (one query each, none when it names none), as the validation's context wants them.
 */
export async function knownReferenceIds(
  db: Kysely<Database>,
  fields: readonly Pick<FormField, 'name' | 'type'>[],
  values: Readonly<Record<string, string>>,
): Promise<{ countryIds: Set<string>; documentTypeIds: Set<string> }> {
  const named = referencedIds(fields, values);
  const [countries, documentTypes] = await Promise.all([
    named.countryIds.length === 0
      ? []
      : db
          .selectFrom('countries')
          .select('id')
          .where('id', '=', sql<number>`any(${named.countryIds}::integer[])`)
          .execute(),
    named.documentTypeIds.length === 0
      ? []
      : db
          .selectFrom('document_types')
          .select('id')
          .where('id', '=', sql<string>`any(${named.documentTypeIds}::text[])`)
          .execute(),
  ]);
  return {
    countryIds: new Set(countries.map((row) => String(row.id))),
    documentTypeIds: new Set(documentTypes.map((row) => row.id)),
  };
}

/** Which profile a call names. */
export type ProfileKey =
  { target: 'Tenant'; tenantId: number } | { target: 'Entity'; entityId: string };

/** A tenant's or entity's profile row, as the caller may read it. */
export interface ProfileOwner {
  target: ProfileTarget;
  tenantId: number;
  partyEntityId: string | null;
  profile: unknown;
  updatedAt: Date | null;
  updatedBy: string | null;
}

/**
 * The profiles a caller may reach (docs/security.md): staff every tenant's and entity's; a tenant
 * user its own tenant's entities' only. The tenant profile is staff's (it is edited on the staff
 * Tenants screen), the user's own tenant's included.
 */
export const reachableProfileTargets = (user: AuthenticatedUser): readonly ProfileTarget[] =>
  holdsRole(user.roles, 'staff') ? PROFILE_TARGETS : ['Entity'];

/**
 * The profile's owner, when the caller may read it: staff any tenant or entity, a tenant user only
 * its own tenant's entities (a tenant profile is a 403, whose ever it is). Another tenant's entity
 * is a 404, like one that does not exist (http/tenant-scope.ts). `forUpdate` locks the row until
 * the transaction ends.
 */
export async function findProfileOwner(
  db: Kysely<Database>,
  user: AuthenticatedUser,
  key: ProfileKey,
  forUpdate = false,
): Promise<ProfileOwner> {
  if (!reachableProfileTargets(user).includes(key.target)) {
    throw forbidden('The tenant profile is for staff only.');
  }
  if (key.target === 'Tenant') {
    const { tenantId } = key;
    const row = await db
      .selectFrom('tenants')
      .select(['id', 'profile', 'profile_updated_at', 'profile_updated_by'])
      .where('id', '=', tenantId)
      .$if(forUpdate, (query) => query.forUpdate())
      .executeTakeFirst();
    if (!row) throw notFound(`Tenant ${tenantId} not found.`);
    return {
      target: 'Tenant',
      tenantId: row.id,
      partyEntityId: null,
      profile: row.profile,
      updatedAt: row.profile_updated_at,
      updatedBy: row.profile_updated_by,
    };
  }
  const row = await db
    .selectFrom('entities')
    .select(['party_entity_id', 'tenant_id', 'profile', 'profile_updated_at', 'profile_updated_by'])
    .where('party_entity_id', '=', key.entityId)
    .$if(forUpdate, (query) => query.forUpdate())
    .executeTakeFirst();
  const readable =
    row !== undefined && (holdsRole(user.roles, 'staff') || row.tenant_id === user.tenantId);
  if (!row || !readable) throw notFound(`Entity ${key.entityId} not found.`);
  return {
    target: 'Entity',
    tenantId: row.tenant_id,
    partyEntityId: row.party_entity_id,
    profile: row.profile,
    updatedAt: row.profile_updated_at,
    updatedBy: row.profile_updated_by,
  };
}

/** The profile form of a target, or undefined when it does not exist (yet). */
export const findProfileForm = (
  db: Kysely<Database>,
  target: ProfileTarget,
): Promise<FormDefinition | undefined> =>
  findFormDefinition(db, { name: PROFILE_FORM_NAMES[target] });

/**
 * The stored values a caller is shown: the values of the profile form's fields it may view, and,
 * for staff, every other value too (a value the form no longer shows, one written by the
 * platform). A tenant user never sees the value of a field whose view permissions leave it out.
 */
export function visibleProfileValues(
  profile: unknown,
  form: Pick<FormDefinition, 'field_definitions'> | undefined,
  roles: AuthenticatedUser['roles'],
): Record<string, string> {
  const viewable = new Map<string, boolean>();
  for (const field of form?.field_definitions ?? []) {
    const key = profileKeyOf(field);
    viewable.set(key, (viewable.get(key) ?? false) || canViewField(field, roles));
  }
  const staff = holdsRole(roles, 'staff');
  return Object.fromEntries(stringEntries(profile).filter(([key]) => viewable.get(key) ?? staff));
}

/** GET svc/formusage/tenant/{id} and entity/{id}: the profile and what its dialog renders. */
export async function readProfile(
  db: Kysely<Database>,
  user: AuthenticatedUser,
  key: ProfileKey,
): Promise<Profile> {
  const owner = await findProfileOwner(db, user, key);
  const form = await findProfileForm(db, owner.target);
  return {
    target: owner.target,
    tenantId: owner.tenantId,
    partyEntityId: owner.partyEntityId,
    formName: PROFILE_FORM_NAMES[owner.target],
    formExists: form !== undefined,
    groups: form ? formGroups(form, user.roles) : [],
    metadata: visibleProfileValues(owner.profile, form, user.roles),
    updatedAt: owner.updatedAt?.toISOString() ?? null,
    updatedBy: owner.updatedBy,
  };
}

/** A stored file as the download answers it. */
export interface StoredProfileFile {
  fileName: string;
  contentType: string;
  content: Buffer;
}

/**
 * GET svc/formusage/{tenant|entity}/{id}/files/{field}: the file of a FileUpload field, found by
 * the field's storage name (under its aliasFor when the profile form's field names one). A field
 * of the form the caller may not view, or a name the form does not have for a tenant user, is a
 * 404 like a field without a file.
 */
export async function readProfileFile(
  db: Kysely<Database>,
  user: AuthenticatedUser,
  key: ProfileKey,
  fieldName: string,
): Promise<StoredProfileFile> {
  const owner = await findProfileOwner(db, user, key);
  const form = await findProfileForm(db, owner.target);
  const field = form?.field_definitions.find(
    (candidate) => candidate.name.toLowerCase() === fieldName.toLowerCase(),
  );
  const visible = field ? canViewField(field, user.roles) : holdsRole(user.roles, 'staff');
  const storedName = field ? profileKeyOf(field) : fieldName;
  const file = visible
    ? await db
        .selectFrom('profile_files')
        .select(['file_name', 'content_type', 'content'])
        .$call((query) =>
          owner.target === 'Tenant'
            ? query.where('tenant_id', '=', owner.tenantId)
            : query.where('party_entity_id', '=', owner.partyEntityId),
        )
        .where(sql`lower(field_name)`, '=', storedName.toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (!file) throw notFound(`No file is stored for ${fieldName}.`);
  return { fileName: file.file_name, contentType: file.content_type, content: file.content };
}
