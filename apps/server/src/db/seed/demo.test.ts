import {
  defaultUiGroupOrder,
  expectedFormName,
  FORM_FIELD_TYPES,
  formFieldUpdateSchema,
  missingFieldIds,
  normalizeTags,
  sortFieldsForSave,
  validateDocumentTypeId,
  type FormDefinition,
} from '@console/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, useTestDatabase } from '../../../test/test-database.ts';
import { findFormDefinition } from '../../features/forms/queries.ts';
import { listFormFields } from '../../features/form-fields/queries.ts';
import type { DatabaseHandle } from '../connection.ts';
import { migrateTo } from '../migrator.ts';
import vendorReferences from './data/document-types-vendor-references.json' with { type: 'json' };
import { buildDemoData, EVENT_WORKERS } from './demo-data.ts';
import { seedDemoData, type SeedSummary } from './demo.ts';
import { demoDocumentTypes } from './document-types.ts';
import { DOCUMENT_TYPES_WITH_FORMS } from './forms.ts';

const NOW = new Date('2026-03-15T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TABLES = [
  'countries',
  'document_types',
  'form_fields',
  'forms',
  'tenants',
  'tenant_namespaces',
  'tenant_users',
  'entities',
  'entity_users',
  'events',
  'processed_events',
] as const;

describe('demo data set', () => {
  const ids = demoDocumentTypes().map((type) => type.id);

  it('is the same on every build; only the timestamps follow the clock', () => {
    const first = buildDemoData(NOW, ids);
    expect(buildDemoData(NOW, ids)).toEqual(first);
    const later = buildDemoData(new Date(NOW.getTime() + 3 * DAY), ids);
    expect(later.entities.map((e) => e.partyEntityId)).toEqual(
      first.entities.map((e) => e.partyEntityId),
    );
    expect(later.entityUsers.map((u) => u.partyUserId)).toEqual(
      first.entityUsers.map((u) => u.partyUserId),
    );
    expect(later.events.map((e) => e.uniqueId)).toEqual(first.events.map((e) => e.uniqueId));
    expect(later.events[0]?.createdAt.getTime()).toBe(
      (first.events[0]?.createdAt.getTime() ?? 0) + 3 * DAY,
    );
  });

  it('never dates anything in the future', () => {
    const data = buildDemoData(NOW, ids);
    const times = [
      ...data.entities.map((e) => e.createdAt),
      ...data.entityUsers.map((u) => u.createdAt),
      ...data.events.map((e) => e.createdAt),
      ...data.events.flatMap((e) => e.processing.map((p) => p.processedAt ?? e.createdAt)),
    ];
    for (const time of times) expect(time.getTime()).toBeLessThanOrEqual(NOW.getTime() + 120_000);
  });
});

describe('seedDemoData', () => {
  let database: DatabaseHandle;
  let first: SeedSummary;

  beforeAll(async () => {
    database = await createTestDatabase();
    first = await seedDemoData(database.db, { now: NOW });
  });
  afterAll(async () => {
    await database?.close();
  });

  const count = async (table: (typeof TABLES)[number]) => {
    const result = await sql<{
      n: number;
    }>`select count(*)::int as n from ${sql.table(table)}`.execute(database.db);
    return result.rows[0]?.n ?? 0;
  };

  it('writes every ISO 3166-1 country', async () => {
    expect(first.countries).toBe(249);
    const countries = await database.db.selectFrom('countries').selectAll().execute();
    expect(countries).toHaveLength(249);
    const byId = new Map(countries.map((country) => [country.id, country]));
    expect(byId.get(276)).toMatchObject({ alpha2: 'DE', alpha3: 'DEU', name: 'Germany' });
    expect(byId.get(840)).toMatchObject({ alpha2: 'US', alpha3: 'USA' });
    expect(byId.get(826)).toMatchObject({ alpha2: 'GB', alpha3: 'GBR' });
    expect(byId.get(4)).toMatchObject({ alpha2: 'AF', alpha3: 'AFG' });
    for (const country of countries) {
      expect(country.alpha2).toMatch(/^[A-Z]{2}$/);
      expect(country.alpha3).toMatch(/^[A-Z]{3}$/);
      expect(country.name.length).toBeGreaterThan(0);
      expect(country).toMatchObject({ created_by: 'seed', updated_by: 'seed' });
    }
  });

  it('writes the document types of the vendor reference file, with valid IDs', async () => {
    const rows = await database.db
      .selectFrom('document_types')
      .selectAll()
      .orderBy('sequence')
      .execute();
    expect(rows.map((row) => row.id)).toEqual([
      'passport',
      'driving_licence',
      'national_identity_card',
      'residence_permit',
      'visa',
    ]);
    expect(rows).toHaveLength(vendorReferences.document_types.length);
    rows.forEach((row, index) => {
      const source = vendorReferences.document_types[index];
      expect(validateDocumentTypeId(row.id)).toBeNull();
      expect(row.display_name).toBe(source?.name);
      expect(row.api_references).toEqual(
        Object.fromEntries(source?.references.map((ref) => [ref.service, ref.value]) ?? []),
      );
      expect(row.tags).toEqual(normalizeTags(row.tags));
      expect(row.tags.length).toBeGreaterThan(0);
      expect(row.sequence).toBe((index + 1) * 10);
      expect(row).toMatchObject({ created_by: 'seed', updated_by: 'seed' });
    });
    expect(rows[0]?.api_references).toMatchObject({ onfido: 'passport', persona: 'pp' });
    expect(rows[0]?.validity_period).toEqual({ years: 10 });
    expect(rows.find((row) => row.id === 'visa')?.validity_period).toBeNull();
  });

  it('writes a field catalogue of every type, valid by the API rules', async () => {
    const fields = await listFormFields(database.db);
    expect(first.formFields).toBe(fields.length);
    expect(fields.length).toBeGreaterThanOrEqual(30);
    expect(fields.length).toBeLessThanOrEqual(50);
    expect(new Set(fields.map((field) => field.type))).toEqual(new Set(FORM_FIELD_TYPES));
    expect(new Set(fields.map((field) => field.uiGroup))).toEqual(
      new Set([
        'Company',
        'Registered Address',
        'Contact',
        'Compliance',
        'Personal Details',
        'Identity Document',
      ]),
    );
    const names = new Set(fields.map((field) => field.name));
    for (const field of fields) {
      // What the field dialog would send back is accepted as it is.
      const parsed = formFieldUpdateSchema.safeParse(field);
      expect(parsed.success, `${field.name}: ${parsed.error?.message}`).toBe(true);
      expect(parsed.data).toMatchObject({ name: field.name, tags: field.tags });
      expect(field.tags).toEqual(normalizeTags(field.tags));
      expect(field.order).not.toBeNull();
      // Every field a field refers to is in the catalogue.
      for (const name of [
        ...field.requireFields,
        ...field.conditionalRequirements.map((requirement) => requirement.fieldName),
      ]) {
        expect(names, `${field.name} refers to ${name}`).toContain(name);
      }
    }
    const byName = new Map(fields.map((field) => [field.name, field]));
    const requirements = fields.flatMap((field) => field.conditionalRequirements);
    expect(requirements.some((r) => r.triggerValues.every((value) => value.startsWith('!')))).toBe(
      true,
    );
    expect(requirements.some((r) => r.triggerValues.every((value) => !value.startsWith('!')))).toBe(
      true,
    );
    expect(fields.some((field) => field.requireFields.length > 0)).toBe(true);
    expect(fields.some((field) => field.viewPermissions.length > 0)).toBe(true);
    expect(fields.some((field) => Object.keys(field.apiReferences).length > 0)).toBe(true);
    expect(fields.some((field) => field.note && field.maxLength && field.required)).toBe(true);
    const selects = fields.filter((field) => field.type === 'Select');
    for (const select of selects) expect(select.options.length).toBeGreaterThan(1);
    expect(
      fields.filter((field) => field.type !== 'Select').every((f) => f.options.length === 0),
    ).toBe(true);

    const registrationNumber = byName.get('CompanyRegistrationNumber');
    const pattern = new RegExp(`^(?:${registrationNumber?.pattern})$`, 'v');
    for (const valid of ['01234567', 'SC123456', 'OC301234']) expect(valid).toMatch(pattern);
    for (const invalid of ['1234567', 'SC12345', 'sc123456', '01234567 ']) {
      expect(invalid).not.toMatch(pattern);
    }
    const rows = await database.db.selectFrom('form_fields').selectAll().execute();
    for (const row of rows) expect(row).toMatchObject({ created_by: 'seed', updated_by: 'seed' });
  });

  it('writes the profile forms and the forms of some document types, every field id resolved', async () => {
    const forms = await database.db.selectFrom('forms').select('name').orderBy('name').execute();
    expect(first.forms).toBe(4);
    expect(forms.map((form) => form.name)).toEqual([
      'EditEntityProfile',
      'EditIndividualId_drivinglicence',
      'EditIndividualId_passport',
      'EditTenantProfile',
    ]);
    for (const { name } of forms) {
      const definition = (await findFormDefinition(database.db, { name })) as FormDefinition;
      expect(definition.fields.length, name).toBeGreaterThanOrEqual(8);
      expect(missingFieldIds(definition), name).toEqual([]);
      expect(definition.uiGroupOrder).toEqual(defaultUiGroupOrder(definition.field_definitions));
      // Saved from the form dialog, the form keeps its order.
      expect(sortFieldsForSave(definition.field_definitions, definition.uiGroupOrder)).toEqual(
        definition.field_definitions,
      );
    }
    // Some document types have their form, the others are flagged (yellow) on their screen.
    const formNames = new Set(forms.map((form) => form.name));
    const types = demoDocumentTypes().map((type) => type.id);
    const withForm = types.filter((id) => formNames.has(expectedFormName(id)));
    expect(withForm).toEqual([...DOCUMENT_TYPES_WITH_FORMS]);
    expect(types.length - withForm.length).toBeGreaterThanOrEqual(2);
  });

  it('writes the demo tenants with their namespaces and portal users', async () => {
    const tenants = await database.db
      .selectFrom('tenants')
      .leftJoin('tenant_namespaces', 'tenant_namespaces.tenant_id', 'tenants.id')
      .leftJoin('tenant_users', 'tenant_users.tenant_id', 'tenants.id')
      .select([
        'tenants.company_name',
        'tenants.domicile_country_id',
        'tenants.created_by',
        'tenant_namespaces.namespace',
        'tenant_users.email',
      ])
      .orderBy('tenants.id')
      .execute();
    expect(tenants).toEqual([
      {
        company_name: 'Acme Corporation',
        domicile_country_id: 840,
        created_by: 'seed',
        namespace: 'acme',
        email: 'portal@acme.example',
      },
      {
        company_name: 'Globex Limited',
        domicile_country_id: 826,
        created_by: 'seed',
        namespace: 'globex',
        email: 'portal@globex.example',
      },
    ]);
  });

  it('writes entities and entity users for both tenants', async () => {
    const entities = await database.db
      .selectFrom('entities')
      .innerJoin('tenants', 'tenants.id', 'entities.tenant_id')
      .select(['party_entity_id', 'company_name', 'names', 'country'])
      .execute();
    expect(first.entities).toBe(entities.length);
    for (const company of ['Acme Corporation', 'Globex Limited']) {
      const own = entities.filter((entity) => entity.company_name === company);
      expect(own.length).toBeGreaterThanOrEqual(25);
      expect(new Set(own.map((entity) => entity.country)).size).toBeGreaterThanOrEqual(5);
    }
    for (const entity of entities) {
      expect(entity.party_entity_id).toMatch(UUID);
      expect(entity.names.names.entityName?.length).toBeGreaterThan(3);
    }

    const users = await database.db
      .selectFrom('entity_users')
      .innerJoin('entities', 'entities.party_entity_id', 'entity_users.party_entity_id')
      .select([
        'entity_users.party_user_id',
        'entity_users.party_entity_id',
        'entity_users.tenant_id',
        'entities.tenant_id as entity_tenant_id',
        'type',
        'state',
        'email',
        'metadata',
        'keys',
      ])
      .execute();
    expect(users.length).toBe(first.entityUsers);
    const perEntity = new Map<string, number>();
    for (const user of users) {
      expect(user.party_user_id).toMatch(UUID);
      expect(user.tenant_id).toBe(user.entity_tenant_id);
      expect(user.metadata).toEqual({
        preferredName: expect.any(String),
        givenName: expect.any(String),
        familyName: expect.any(String),
      });
      if (user.email !== null) expect(user.email).toMatch(/^[a-z0-9.]+@[a-z0-9-]+\.example$/);
      perEntity.set(user.party_entity_id, (perEntity.get(user.party_entity_id) ?? 0) + 1);
    }
    expect(perEntity.size).toBe(entities.length);
    for (const n of perEntity.values()) expect(n).toBeGreaterThanOrEqual(1);
    for (const n of perEntity.values()) expect(n).toBeLessThanOrEqual(3);
    const types = new Set(users.map((user) => user.type));
    expect(types.has(0) && types.has(1) && [...types].some((type) => type > 1)).toBe(true);
    expect(new Set(users.map((user) => user.state))).toEqual(
      new Set(['active', 'invited', 'suspended']),
    );
    const keyValues = users.flatMap((user) => Object.values(user.keys));
    expect(keyValues.some((value) => value.length > 50)).toBe(true);
    expect(keyValues.some((value) => value.length <= 50)).toBe(true);
    // Every entity's primary user: type 0, exactly one per entity.
    const primaries = users.filter((user) => user.type === 0);
    expect(new Set(primaries.map((user) => user.party_entity_id)).size).toBe(primaries.length);
    expect(primaries.length).toBe(entities.length);
  });

  it('writes ~150 events of the last 30 days with consistent processing flags', async () => {
    const events = await database.db.selectFrom('events').selectAll().orderBy('id').execute();
    const processing = await database.db.selectFrom('processed_events').selectAll().execute();
    expect(events).toHaveLength(150);
    expect(first.processedEvents).toBe(processing.length);
    const entityIds = new Set(
      (await database.db.selectFrom('entities').select('party_entity_id').execute()).map(
        (row) => row.party_entity_id,
      ),
    );
    for (const event of events) {
      const age = NOW.getTime() - event.created_at.getTime();
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThanOrEqual(30 * DAY);
      expect(event.metadata).toMatchObject({
        actor: expect.any(String),
        action: expect.any(String),
      });
      if (event.entity_id !== null) {
        expect(entityIds.has(event.entity_id)).toBe(true);
        expect(event.tenant_id).not.toBeNull();
      }
      const rows = processing.filter((row) => row.event_id === event.id);
      expect(event.has_error).toBe(rows.some((row) => row.has_error));
      expect(event.is_processed).toBe(
        !event.has_error &&
          EVENT_WORKERS.every((worker) =>
            rows.some((row) => row.worker_name === worker && row.processed_at !== null),
          ),
      );
      for (const row of rows) {
        expect(EVENT_WORKERS).toContain(row.worker_name);
        if (row.has_error) expect(row.error_message?.length).toBeGreaterThan(10);
        else expect(row.error_message).toBeNull();
      }
    }
    // Ids follow time, as a live outbox would have them.
    const times = events.map((event) => event.created_at.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(events.map((event) => event.unique_id)).size).toBe(events.length);
    const names = new Set(events.map((event) => event.event_name));
    for (const name of [
      'TenantCreated',
      'TenantUserCreated',
      'EntityCreated',
      'CountriesImported',
    ]) {
      expect(names).toContain(name);
    }
    expect(events.filter((event) => event.tenant_id === null).length).toBeGreaterThan(0);
    expect(
      events.filter((event) => event.tenant_id !== null && event.entity_id === null).length,
    ).toBeGreaterThan(0);
    const processed = events.filter((event) => event.is_processed).length;
    const errored = events.filter((event) => event.has_error).length;
    const waiting = events.length - processed - errored;
    expect(processed).toBeGreaterThan(events.length * 0.7);
    expect(errored).toBeGreaterThanOrEqual(3);
    expect(waiting).toBeGreaterThanOrEqual(5);
    expect(processing.some((row) => row.error_message?.startsWith('SMTP'))).toBe(true);
  });

  it('changes nothing when run again, and keeps what a user edited', async () => {
    const before = await Promise.all(TABLES.map(count));
    await database.db
      .updateTable('countries')
      .set({ name: 'Deutschland', updated_by: 'admin@example.com' })
      .where('id', '=', 276)
      .execute();
    await database.db
      .updateTable('document_types')
      .set({ display_name: 'Passport (ICAO)', tags: ['travel'] })
      .where('id', '=', 'passport')
      .execute();
    await database.db
      .updateTable('tenants')
      .set({ company_name: 'Acme Corp.' })
      .where('company_name', '=', 'Acme Corporation')
      .execute();

    await database.db
      .updateTable('form_fields')
      .set({ display_name: 'Company name', required: false })
      .where('name', '=', 'CompanyName')
      .execute();
    await database.db
      .updateTable('forms')
      .set({ field_ids: [] })
      .where('name', '=', 'EditTenantProfile')
      .execute();

    const again = await seedDemoData(database.db, { now: new Date(NOW.getTime() + DAY) });
    expect(again).toEqual(Object.fromEntries(Object.keys(again).map((key) => [key, 0])));
    expect(await Promise.all(TABLES.map(count))).toEqual(before);
    const germany = await database.db
      .selectFrom('countries')
      .selectAll()
      .where('id', '=', 276)
      .executeTakeFirstOrThrow();
    expect(germany).toMatchObject({ name: 'Deutschland', updated_by: 'admin@example.com' });
    const passport = await database.db
      .selectFrom('document_types')
      .selectAll()
      .where('id', '=', 'passport')
      .executeTakeFirstOrThrow();
    expect(passport).toMatchObject({ display_name: 'Passport (ICAO)', tags: ['travel'] });
    const companyName = await database.db
      .selectFrom('form_fields')
      .selectAll()
      .where('name', '=', 'CompanyName')
      .executeTakeFirstOrThrow();
    expect(companyName).toMatchObject({ display_name: 'Company name', required: false });
    const tenantProfile = await database.db
      .selectFrom('forms')
      .selectAll()
      .where('name', '=', 'EditTenantProfile')
      .executeTakeFirstOrThrow();
    expect(tenantProfile.field_ids).toEqual([]);
  });

  it('puts back a demo row that was deleted, and nothing else', async () => {
    const before = await Promise.all(TABLES.map(count));
    await database.db.deleteFrom('countries').where('id', '=', 4).execute();
    const summary = await seedDemoData(database.db, { now: NOW });
    expect(summary.countries).toBe(1);
    expect(await Promise.all(TABLES.map(count))).toEqual(before);
  });

  it('skips a deleted country whose code another id holds now, and keeps that country', async () => {
    await database.db.deleteFrom('countries').where('id', '=', 4).execute();
    // Afghanistan's alpha-2, given to a country under another id (an import can do that).
    await database.db
      .insertInto('countries')
      .values({
        id: 995,
        alpha2: 'AF',
        alpha3: 'AFX',
        name: 'Not Afghanistan',
        created_by: 'x',
        updated_by: 'x',
        updated_at: NOW,
      })
      .execute();
    const summary = await seedDemoData(database.db, { now: NOW });
    expect(summary.countries).toBe(0);
    const held = await database.db
      .selectFrom('countries')
      .select(['id', 'name'])
      .where('alpha2', '=', 'AF')
      .execute();
    expect(held).toEqual([{ id: 995, name: 'Not Afghanistan' }]);
    await database.db.deleteFrom('countries').where('id', '=', 995).execute();
    expect((await seedDemoData(database.db, { now: NOW })).countries).toBe(1);
  });

  it('puts back a deleted field and form; the form names the field by its new id', async () => {
    const before = await Promise.all(TABLES.map(count));
    const { id: oldId } = await database.db
      .deleteFrom('form_fields')
      .where('name', '=', 'MachineReadableZone')
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.db.deleteFrom('forms').where('name', '=', 'EditIndividualId_passport').execute();
    const summary = await seedDemoData(database.db, { now: NOW });
    expect(summary).toMatchObject({ formFields: 1, forms: 1, countries: 0 });
    expect(await Promise.all(TABLES.map(count))).toEqual(before);
    const passport = (await findFormDefinition(database.db, {
      name: 'EditIndividualId_passport',
    })) as FormDefinition;
    expect(missingFieldIds(passport)).toEqual([]);
    expect(passport.field_definitions.map((field) => field.name)).toContain('MachineReadableZone');
    expect(passport.fields).not.toContain(oldId);
  });
});

describe('seedDemoData run by two processes at once', () => {
  const database = useTestDatabase();

  it('writes the demo data once', async () => {
    const [a, b] = await Promise.all([
      seedDemoData(database.db, { now: NOW }),
      seedDemoData(database.db, { now: NOW }),
    ]);
    expect(a.events + b.events).toBe(150);
    expect(a.tenants + b.tenants).toBe(2);
    const tenants = await database.db.selectFrom('tenants').select('company_name').execute();
    expect(tenants).toHaveLength(2);
  });
});

describe('seedDemoData on a database one migration behind (MIGRATE_ON_START_HOLD_BACK=1)', () => {
  const database = useTestDatabase({ empty: true });

  it('seeds everything but the field catalogue and forms, which follow once migration 15 is applied', async () => {
    await migrateTo(database.db, 14);
    const summary = await seedDemoData(database.db, { now: NOW });
    expect(summary).toMatchObject({ countries: 249, documentTypes: 5, formFields: 0, forms: 0 });
    expect(summary.events).toBe(150);
    const forms = await database.db.selectFrom('forms').select('name').execute();
    expect(forms).toEqual([]);

    await migrateTo(database.db);
    const later = await seedDemoData(database.db, { now: NOW });
    expect(later).toMatchObject({ countries: 0, events: 0, forms: 4 });
    expect(later.formFields).toBeGreaterThanOrEqual(30);
  });
});
