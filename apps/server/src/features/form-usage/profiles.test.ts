import {
  PROFILE_FILE_MAX_BYTES,
  PROFILE_FILES_MAX_COUNT,
  PROFILE_SAVED_MESSAGE,
  VALIDATION_PROBLEM_TITLE,
} from '@console/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { snapshotDatabase } from '../../../test/database-snapshot.ts';
import { clearFormsAndProfiles, insertFields, insertForm } from '../../../test/form-rows.ts';
import { attr, elements, hasAttr, parseHtml, withAttr } from '../../../test/html.ts';
import { multipart, type Part } from '../../../test/multipart.ts';
import { CALLERS, usePortalTestApp, type Caller } from '../../../test/portal-test-app.ts';
import { eventsAfter, lastEventId } from '../../../test/recorded-events.ts';

/**
 * The form usage calls of the profile dialogs (spec part 1, sections 7 and 8; forms-design.md,
 * "Profiles"): group HTML, the tenant and entity profiles, their files, and the multipart
 * submission, for every kind of caller, with the demo tenants Acme (the caller 'acme' is its
 * portal user) and Globex ('globex').
 */

// No event workers: they would update the events of earlier tests while a test compares snapshots.
const portal = usePortalTestApp({ eventWorkersEnabled: false });
const db = () => portal.testApp.database.db;

let acmeEntity: string;
let globexEntity: string;

beforeEach(async () => {
  await clearFormsAndProfiles(db());
  const tenantFields = await insertFields(db(), [
    { name: 'LegalName', displayName: 'Legal name', required: true, uiGroup: 'Company' },
    { name: 'TradingName', displayName: 'Trading name', aliasFor: 'BrandName', uiGroup: 'Company' },
    {
      name: 'Segment',
      type: 'Select',
      displayName: 'Segment',
      options: ['Bank', 'Fintech', 'Other'],
      uiGroup: 'Company',
    },
    {
      name: 'SegmentOther',
      displayName: 'Other segment',
      uiGroup: 'Company',
      conditionalRequirements: [{ fieldName: 'Segment', triggerValues: ['Other'] }],
    },
    { name: 'Domicile', type: 'Country', displayName: 'Domicile', uiGroup: 'Company' },
    {
      name: 'Certificate',
      type: 'FileUpload',
      displayName: 'Certificate of incorporation',
      uiGroup: 'Documents',
    },
    {
      name: 'InternalRating',
      displayName: 'Internal rating',
      editPermissions: ['staff'],
      uiGroup: 'Internal',
    },
    {
      name: 'StaffNotes',
      displayName: 'Staff notes',
      viewPermissions: ['staff'],
      uiGroup: 'Internal',
    },
  ]);
  await insertForm(db(), 'EditTenantProfile', tenantFields, {
    uiGroupOrder: ['Company', 'Documents', 'Internal'],
  });
  const entityFields = await insertFields(db(), [
    { name: 'EntityRisk', type: 'DropdownYesNo', displayName: 'High risk', uiGroup: 'Risk' },
    {
      name: 'EntityDocument',
      type: 'FileUpload',
      displayName: 'Register extract',
      uiGroup: 'Risk',
    },
    {
      name: 'EntityRating',
      displayName: 'Entity rating',
      editPermissions: ['staff'],
      uiGroup: 'Review',
    },
    {
      name: 'ReviewNotes',
      displayName: 'Review notes',
      viewPermissions: ['staff'],
      uiGroup: 'Review',
    },
  ]);
  await insertForm(db(), 'EditEntityProfile', entityFields);
  const entityOf = async (tenantId: number) =>
    (
      await db()
        .selectFrom('entities')
        .select('party_entity_id')
        .where('tenant_id', '=', tenantId)
        .orderBy('party_entity_id')
        .executeTakeFirstOrThrow()
    ).party_entity_id;
  acmeEntity = await entityOf(portal.acmeId);
  globexEntity = await entityOf(portal.globexId);
});

const get = (caller: Caller, url: string) => portal.call(caller, 'GET', url);

/** A profile submission: the usual parts, with `extra` parts appended. */
function send(
  caller: Caller,
  target: { Target?: string; TenantId?: string | number; EntityId?: string },
  formData: Record<string, string> | string | undefined,
  extra: Part[] = [],
) {
  const parts: Part[] = [];
  for (const [name, value] of Object.entries(target)) {
    if (value !== undefined) parts.push({ name, value: String(value) });
  }
  if (formData !== undefined) {
    const json =
      typeof formData === 'string'
        ? formData
        : JSON.stringify(
            Object.fromEntries(Object.entries(formData).map(([k, v]) => [`DataObject.${k}`, v])),
          );
    parts.push({ name: 'FormData', value: json });
  }
  const { payload, headers } = multipart([...parts, ...extra]);
  return portal.call(caller, 'POST', '/svc/formusage/submit', payload, headers);
}

const tenant = (id: number) => ({ Target: 'Tenant', TenantId: id });
const entity = (id: string) => ({ Target: 'Entity', EntityId: id });

const storedProfile = async (tenantId: number) =>
  db()
    .selectFrom('tenants')
    .select(['profile', 'profile_updated_at', 'profile_updated_by'])
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow();

describe('GET /svc/formusage/{fieldgroup}/fieldgroup', () => {
  const group = (caller: Caller, name: string, query = '') =>
    get(caller, `/svc/formusage/${encodeURIComponent(name)}/fieldgroup${query}`);

  it('answers a group of the whole catalogue to staff, in the fields list order', async () => {
    const response = await group('staff', 'Company');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const names = elements(parseHtml(response.body).root)
      .map((element) => attr(element, 'data-field'))
      .filter(Boolean);
    // By display name: Domicile, Legal name, Other segment, Segment, Trading name.
    expect(names).toEqual(['Domicile', 'LegalName', 'SegmentOther', 'Segment', 'TradingName']);
  });

  it('answers a group of the entity profile form to a tenant user, without the fields it may not see', async () => {
    const response = await group('acme', 'Review', '?form=EditEntityProfile');
    expect(response.statusCode).toBe(200);
    const { root } = parseHtml(response.body);
    expect(withAttr(root, 'data-field', 'ReviewNotes')).toEqual([]);
    const rating = withAttr(root, 'name', 'DataObject.EntityRating')[0]!;
    expect(hasAttr(rating, 'disabled')).toBe(true);
  });

  it("refuses every group of the tenant profile form to both tenant users (403), their own tenant's form too", async () => {
    for (const caller of ['acme', 'globex'] as const) {
      for (const name of ['Company', 'Documents', 'Internal', 'Nowhere']) {
        for (const query of ['?form=EditTenantProfile', '?form=edittenantprofile', '']) {
          const response = await group(caller, name, query);
          expect(response.statusCode, `${caller} ${name}${query}`).toBe(403);
          expect(response.body, `${caller} ${name}${query}`).not.toContain('LegalName');
        }
      }
    }
    expect((await group('staff', 'Company', '?form=EditTenantProfile')).statusCode).toBe(200);
  });

  it('renders every control disabled with hasEditPermission=false, the summary on request', async () => {
    const response = await group(
      'staff',
      'Company',
      '?form=EditTenantProfile&hasEditPermission=false&showValidationSummary=true',
    );
    const { root } = parseHtml(response.body);
    const controls = elements(root).filter((element) => attr(element, 'name'));
    expect(controls.length).toBe(5);
    expect(controls.every((control) => hasAttr(control, 'disabled'))).toBe(true);
    expect(withAttr(root, 'class', 'df-validation-summary')).toHaveLength(1);
  });

  it('refuses a tenant user without the entity profile form (403), and staff may pass any form', async () => {
    expect((await group('acme', 'Risk')).statusCode).toBe(403);
    await insertForm(db(), 'OtherForm', []);
    expect((await group('acme', 'Risk', '?form=OtherForm')).statusCode).toBe(403);
    expect((await group('globex', 'Risk', '?form=editentityprofile')).statusCode).toBe(200);
    // The entity form has no group of the tenant form's only: nothing of the tenant form shows.
    expect((await group('acme', 'Company', '?form=EditEntityProfile')).statusCode).toBe(404);
    expect((await group('staff', 'Company', '?form=OtherForm')).statusCode).toBe(404);
  });

  it('answers 404 for an unknown group or form, 400 for a bad flag', async () => {
    expect((await group('staff', 'Nowhere')).statusCode).toBe(404);
    expect((await group('staff', 'Company', '?form=Missing')).statusCode).toBe(404);
    expect((await group('staff', 'Nowhere', '?form=EditTenantProfile')).statusCode).toBe(404);
    const bad = await group('staff', 'Company', '?hasEditPermission=yes');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('hasEditPermission');
  });

  it.each([
    ['anonymous', 401],
    ['noRole', 403],
  ] as const)('refuses %s with %i', async (caller, status) => {
    expect((await group(caller, 'Company', '?form=EditTenantProfile')).statusCode).toBe(status);
  });
});

describe('GET /svc/formusage/tenant/{id} and entity/{id}', () => {
  beforeEach(async () => {
    await db()
      .updateTable('tenants')
      .set({
        profile: JSON.stringify({ LegalName: 'Acme Corp', StaffNotes: 'watch', Legacy: 'old' }),
      })
      .where('id', '=', portal.acmeId)
      .execute();
  });

  it("answers a tenant's profile: values, the form's groups, who changed it last", async () => {
    const response = await get('staff', `/svc/formusage/tenant/${portal.acmeId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      target: 'Tenant',
      tenantId: portal.acmeId,
      partyEntityId: null,
      formName: 'EditTenantProfile',
      formExists: true,
      groups: ['Company', 'Documents', 'Internal'],
      metadata: { LegalName: 'Acme Corp', StaffNotes: 'watch', Legacy: 'old' },
      updatedAt: null,
      updatedBy: null,
    });
  });

  it("shows a tenant user only the values of its entity's form's fields it may view", async () => {
    await db()
      .updateTable('entities')
      .set({ profile: JSON.stringify({ EntityRisk: 'No', ReviewNotes: 'watch', Legacy: 'old' }) })
      .where('party_entity_id', '=', acmeEntity)
      .execute();
    const response = await get('acme', `/svc/formusage/entity/${acmeEntity}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().metadata).toEqual({ EntityRisk: 'No' });
    const staff = await get('staff', `/svc/formusage/entity/${acmeEntity}`);
    expect(staff.json().metadata).toEqual({
      EntityRisk: 'No',
      ReviewNotes: 'watch',
      Legacy: 'old',
    });
  });

  it("refuses the tenant profile to both tenant users (403), their own tenant's too, whatever the id", async () => {
    for (const caller of ['acme', 'globex'] as const) {
      for (const id of [portal.acmeId, portal.globexId, 999_999]) {
        const response = await get(caller, `/svc/formusage/tenant/${id}`);
        expect(response.statusCode, `${caller} ${id}`).toBe(403);
        expect(response.json(), `${caller} ${id}`).toEqual({
          message: 'The tenant profile is for staff only.',
        });
      }
    }
  });

  it("answers 404 to a tenant user for another tenant's entity, as for none", async () => {
    const otherEntity = await get('acme', `/svc/formusage/entity/${globexEntity}`);
    expect(otherEntity.statusCode).toBe(404);
    expect(otherEntity.json()).toEqual({ message: `Entity ${globexEntity} not found.` });
    expect((await get('acme', '/svc/formusage/entity/nobody')).statusCode).toBe(404);
  });

  it("answers an entity's profile to staff and to its tenant's user, each its groups", async () => {
    for (const caller of ['staff', 'admin', 'acme'] as const) {
      const response = await get(caller, `/svc/formusage/entity/${acmeEntity}`);
      expect(response.statusCode, caller).toBe(200);
      expect(response.json()).toMatchObject({
        target: 'Entity',
        tenantId: portal.acmeId,
        partyEntityId: acmeEntity,
        formName: 'EditEntityProfile',
        formExists: true,
        groups: ['Risk', 'Review'],
        metadata: {},
      });
    }
  });

  it('says formExists false with no groups when the profile form does not exist', async () => {
    await db().deleteFrom('forms').where('name', '=', 'EditEntityProfile').execute();
    const response = await get('staff', `/svc/formusage/entity/${acmeEntity}`);
    expect(response.json()).toMatchObject({ formExists: false, groups: [] });
  });

  it('refuses bad ids and unknown entities', async () => {
    expect((await get('staff', '/svc/formusage/tenant/0x1')).statusCode).toBe(400);
    expect((await get('staff', '/svc/formusage/entity/nobody')).statusCode).toBe(404);
  });

  it.each([
    ['anonymous', 401],
    ['noRole', 403],
  ] as const)('refuses %s with %i', async (caller, status) => {
    expect((await get(caller, `/svc/formusage/tenant/${portal.acmeId}`)).statusCode).toBe(status);
    expect((await get(caller, `/svc/formusage/entity/${acmeEntity}`)).statusCode).toBe(status);
  });
});

describe('POST /svc/formusage/submit', () => {
  const valid = { LegalName: ' Acme Corporation ', TradingName: 'Acme', Segment: 'Bank' };

  it("stores the form's values, keeps the others, stamps the change and records its event", async () => {
    await db()
      .updateTable('tenants')
      .set({
        profile: JSON.stringify({ Legacy: 'kept', Segment: 'Fintech', SegmentOther: 'gone' }),
      })
      .where('id', '=', portal.acmeId)
      .execute();
    const mark = await lastEventId(db());
    const response = await send('staff', tenant(portal.acmeId), {
      ...valid,
      SegmentOther: '',
      InternalRating: 'B',
    });
    expect(response.json()).toEqual({
      message: PROFILE_SAVED_MESSAGE,
      submittedData: {
        LegalName: 'Acme Corporation',
        TradingName: 'Acme',
        Segment: 'Bank',
        InternalRating: 'B',
      },
    });
    expect(response.statusCode).toBe(200);
    const stored = await storedProfile(portal.acmeId);
    expect(stored.profile).toEqual({
      Legacy: 'kept',
      LegalName: 'Acme Corporation',
      BrandName: 'Acme',
      Segment: 'Bank',
      InternalRating: 'B',
    });
    expect(stored.profile_updated_by).toBe('staff@example.com');
    expect(stored.profile_updated_at).toBeInstanceOf(Date);

    const events = await eventsAfter(db(), mark);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      eventName: 'TenantProfileUpdated',
      tenantId: portal.acmeId,
      entityId: null,
      metadata: {
        actor: 'staff@example.com',
        action: 'update',
        tenantId: portal.acmeId,
        formName: 'EditTenantProfile',
        changed: ['BrandName', 'InternalRating', 'LegalName', 'Segment', 'SegmentOther'],
        // For the audit log's difference: the changed values only, before and after.
        before: { Segment: 'Fintech', SegmentOther: 'gone' },
        after: {
          BrandName: 'Acme',
          LegalName: 'Acme Corporation',
          Segment: 'Bank',
          InternalRating: 'B',
        },
      },
    });
    // A value the submission did not change stays out of the event.
    expect(JSON.stringify(events[0]!.metadata)).not.toContain('kept');

    const read = await get('staff', `/svc/formusage/tenant/${portal.acmeId}`);
    expect(read.json()).toMatchObject({
      metadata: stored.profile,
      updatedBy: 'staff@example.com',
      updatedAt: stored.profile_updated_at!.toISOString(),
    });
  });

  it('refuses a field name JavaScript objects reserve, in FormData or as a file part, naming it', async () => {
    // A field older than the storage-name rule, inserted as it was: it cannot be saved to.
    const [id] = await insertFields(db(), [{ name: 'constructor', displayName: 'Constructor' }]);
    await db().deleteFrom('forms').where('name', '=', 'EditEntityProfile').execute();
    await insertForm(db(), 'EditEntityProfile', [id!]);
    const before = await snapshotDatabase(db());
    for (const caller of ['staff', 'acme'] as const) {
      for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype']) {
        const input = `DataObject.${key}`;
        const message = `The field name of ${input} must not be ${key}: JavaScript objects reserve that name`;
        const asValue = await send(caller, entity(acmeEntity), { [key]: 'built' });
        expect(asValue.statusCode, `${caller} ${input}`).toBe(400);
        expect(asValue.json(), `${caller} ${input}`).toEqual({
          message,
          errors: [{ path: `FormData.${input}`, message }],
        });
        const asFile = await send(caller, entity(acmeEntity), {}, [
          { name: input, fileName: 'f.txt', content: 'f' },
        ]);
        expect(asFile.statusCode, `${caller} ${input} file`).toBe(400);
        expect(asFile.json(), `${caller} ${input} file`).toEqual({
          message,
          errors: [{ path: input, message }],
        });
      }
    }
    expect(await snapshotDatabase(db())).toEqual(before);
  });

  it('answers a file for a field whose label every object has (constructor) by its label', async () => {
    const [id] = await insertFields(db(), [{ name: 'Builder', displayName: 'constructor' }]);
    await db().deleteFrom('forms').where('name', '=', 'EditEntityProfile').execute();
    await insertForm(db(), 'EditEntityProfile', [id!]);
    const response = await send('acme', entity(acmeEntity), { Builder: 'x' }, [
      { name: 'DataObject.Builder', fileName: 'f.txt', content: 'f' },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      title: VALIDATION_PROBLEM_TITLE,
      errors: { constructor: ['constructor does not take a file.'] },
    });
  });

  it("lets a tenant user save its own tenant's entities' profiles", async () => {
    const mark = await lastEventId(db());
    const response = await send('acme', entity(acmeEntity), { EntityRisk: 'Yes' });
    expect(response.statusCode).toBe(200);
    const row = await db()
      .selectFrom('entities')
      .select(['profile', 'profile_updated_by'])
      .where('party_entity_id', '=', acmeEntity)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      profile: { EntityRisk: 'Yes' },
      profile_updated_by: 'portal@acme.example',
    });
    expect(await eventsAfter(db(), mark)).toMatchObject([
      {
        eventName: 'EntityProfileUpdated',
        tenantId: portal.acmeId,
        entityId: acmeEntity,
        metadata: { entityId: acmeEntity, changed: ['EntityRisk'] },
      },
    ]);
  });

  it("refuses both tenant users a tenant profile save (403), their own tenant's too, and changes nothing", async () => {
    const before = await snapshotDatabase(db());
    const certificate: Part = { name: 'DataObject.Certificate', fileName: 'c.pdf', content: 'c' };
    for (const caller of ['acme', 'globex'] as const) {
      for (const id of [portal.acmeId, portal.globexId, 999_999]) {
        const response = await send(caller, tenant(id), valid, [certificate]);
        expect(response.statusCode, `${caller} ${id}`).toBe(403);
        expect(response.json().message).toBe('The tenant profile is for staff only.');
      }
    }
    expect(await snapshotDatabase(db())).toEqual(before);
  });

  it("answers 404 to a tenant user for another tenant's entity and changes nothing", async () => {
    const before = await snapshotDatabase(db());
    for (const target of [entity(globexEntity), entity('nobody')]) {
      const response = await send('acme', target, { EntityRisk: 'Yes' });
      expect(response.statusCode, JSON.stringify(target)).toBe(404);
    }
    expect(await snapshotDatabase(db())).toEqual(before);
  });

  it('answers 400 {title, errors} by label and stores nothing when values are refused', async () => {
    const before = await snapshotDatabase(db());
    const response = await send('staff', tenant(portal.acmeId), {
      Segment: 'Other',
      Domicile: '999',
      Unknown: 'x',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      title: VALIDATION_PROBLEM_TITLE,
      errors: {
        'Legal name': ['Legal name is required.'],
        'Other segment': ["Other segment is required when Segment is 'Other'."],
        Domicile: ['Domicile must be a known country.'],
        Unknown: ['Not a field of this form.'],
      },
    });
    expect(await snapshotDatabase(db())).toEqual(before);
  });

  it('keeps a value the caller may not change, and refuses a different one', async () => {
    await db()
      .updateTable('entities')
      .set({ profile: JSON.stringify({ EntityRating: 'A', ReviewNotes: 'watch' }) })
      .where('party_entity_id', '=', acmeEntity)
      .execute();
    const refused = await send('acme', entity(acmeEntity), { EntityRating: 'C' });
    expect(refused.json().errors).toEqual({
      'Entity rating': ['Entity rating cannot be changed by your account.'],
    });
    const hidden = await send('acme', entity(acmeEntity), { ReviewNotes: '' });
    expect(hidden.json().errors).toEqual({
      'Review notes': ['Review notes cannot be changed by your account.'],
    });
    const saved = await send('acme', entity(acmeEntity), { EntityRisk: 'No', EntityRating: 'A' });
    expect(saved.statusCode).toBe(200);
    const row = await db()
      .selectFrom('entities')
      .select('profile')
      .where('party_entity_id', '=', acmeEntity)
      .executeTakeFirstOrThrow();
    expect(row.profile).toEqual({ EntityRisk: 'No', EntityRating: 'A', ReviewNotes: 'watch' });
  });

  describe('files', () => {
    const pdf = Buffer.from('%PDF-1.7 certificate');
    const certificate = (content: Buffer | string = pdf, fileName = 'certificate.pdf'): Part => ({
      name: 'DataObject.Certificate',
      fileName,
      content,
      contentType: 'application/pdf',
    });

    it('stores a file per field, replaces it on the next save, and serves it as an attachment', async () => {
      const mark = await lastEventId(db());
      const response = await send('staff', tenant(portal.acmeId), valid, [certificate()]);
      expect(response.statusCode).toBe(200);
      expect(response.json().submittedData.Certificate).toBe('certificate.pdf');
      expect((await storedProfile(portal.acmeId)).profile).toMatchObject({
        Certificate: 'certificate.pdf',
      });
      const events = await eventsAfter(db(), mark);
      expect(events[0]!.metadata).toMatchObject({
        changed: expect.arrayContaining(['Certificate']),
      });

      const download = await get(
        'admin',
        `/svc/formusage/tenant/${portal.acmeId}/files/Certificate`,
      );
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload).toEqual(pdf);
      expect(download.headers['content-type']).toBe('application/pdf');
      expect(download.headers['content-disposition']).toBe(
        `attachment; filename="certificate.pdf"; filename*=UTF-8''certificate.pdf`,
      );
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.headers['content-security-policy']).toBe("sandbox; default-src 'none'");

      // A save without a file keeps it; a new file replaces it.
      expect((await send('admin', tenant(portal.acmeId), valid)).statusCode).toBe(200);
      expect((await storedProfile(portal.acmeId)).profile).toMatchObject({
        Certificate: 'certificate.pdf',
      });
      const second = Buffer.from('second version');
      const replaced = await send('staff', tenant(portal.acmeId), valid, [
        certificate(second, 'Übersicht v2;.txt'),
      ]);
      expect(replaced.statusCode).toBe(200);
      const files = await db().selectFrom('profile_files').selectAll().execute();
      expect(files).toHaveLength(1);
      expect(files[0]).toMatchObject({
        tenant_id: portal.acmeId,
        party_entity_id: null,
        field_name: 'Certificate',
        file_name: 'Übersicht v2;.txt',
        size: second.length,
        uploaded_by: 'staff@example.com',
      });
      const again = await get('staff', `/svc/formusage/tenant/${portal.acmeId}/files/certificate`);
      expect(again.rawPayload).toEqual(second);
      expect(again.headers['content-disposition']).toBe(
        `attachment; filename="_bersicht v2;.txt"; filename*=UTF-8''%C3%9Cbersicht%20v2%3B.txt`,
      );
    });

    it("stores an entity's file, served to its tenant's user only", async () => {
      const extract: Part = {
        name: 'DataObject.EntityDocument',
        fileName: 'extract.txt',
        content: 'register extract',
        contentType: 'text/plain',
      };
      expect((await send('staff', entity(acmeEntity), {}, [extract])).statusCode).toBe(200);
      const url = `/svc/formusage/entity/${acmeEntity}/files/EntityDocument`;
      expect((await get('acme', url)).body).toBe('register extract');
      expect((await get('globex', url)).statusCode).toBe(404);
    });

    it("refuses a tenant profile's files to both tenant users (403), their own tenant's too", async () => {
      expect((await send('staff', tenant(portal.acmeId), valid, [certificate()])).statusCode).toBe(
        200,
      );
      for (const caller of ['acme', 'globex'] as const) {
        for (const field of ['Certificate', 'Nothing']) {
          const url = `/svc/formusage/tenant/${portal.acmeId}/files/${field}`;
          const response = await get(caller, url);
          expect(response.statusCode, `${caller} ${field}`).toBe(403);
          expect(response.rawPayload).not.toEqual(pdf);
        }
      }
    });

    it('answers 404 when no file is stored, or for a field the caller may not see', async () => {
      const none = await get('staff', `/svc/formusage/tenant/${portal.acmeId}/files/Certificate`);
      expect(none.statusCode).toBe(404);
      await db()
        .insertInto('profile_files')
        .values({
          party_entity_id: acmeEntity,
          field_name: 'ReviewNotes',
          file_name: 'n.txt',
          content_type: 'text/plain',
          size: 1,
          content: Buffer.from('n'),
          uploaded_by: 'test',
        })
        .execute();
      const hidden = `/svc/formusage/entity/${acmeEntity}/files/ReviewNotes`;
      expect((await get('staff', hidden)).statusCode).toBe(200);
      expect((await get('acme', hidden)).statusCode).toBe(404);
      expect(
        (await get('staff', `/svc/formusage/tenant/${portal.acmeId}/files/bad-name`)).statusCode,
      ).toBe(400);
    });

    it('refuses a file over the limit with 413, naming the part', async () => {
      const before = await snapshotDatabase(db());
      const response = await send('staff', tenant(portal.acmeId), valid, [
        certificate(Buffer.alloc(PROFILE_FILE_MAX_BYTES + 1, 1)),
      ]);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({
        message: 'DataObject.Certificate: a file may be at most 10 MB.',
        errors: [
          {
            path: 'DataObject.Certificate',
            message: 'DataObject.Certificate: a file may be at most 10 MB.',
          },
        ],
      });
      expect(await snapshotDatabase(db())).toEqual(before);
      // At the limit exactly, it is taken.
      const atLimit = await send('staff', tenant(portal.acmeId), valid, [
        certificate(Buffer.alloc(PROFILE_FILE_MAX_BYTES, 1)),
      ]);
      expect(atLimit.statusCode).toBe(200);
    });

    it('refuses more files than the limit (413)', async () => {
      const files = Array.from({ length: PROFILE_FILES_MAX_COUNT + 1 }, (_, index) => ({
        ...certificate(),
        name: `DataObject.F${index}`,
      }));
      const response = await send('staff', tenant(portal.acmeId), valid, files);
      expect(response.statusCode).toBe(413);
    });

    it('refuses files for the wrong field, twice for one field, or under a bad part name', async () => {
      const wrong = await send('staff', tenant(portal.acmeId), valid, [
        { ...certificate(), name: 'DataObject.LegalName' },
        { ...certificate(), name: 'DataObject.Nope' },
      ]);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errors).toEqual({
        'Legal name': ['Legal name does not take a file.'],
        Nope: ['Not a field of this form.'],
      });
      const twice = await send('staff', tenant(portal.acmeId), valid, [
        certificate(),
        certificate(),
      ]);
      expect(twice.statusCode).toBe(400);
      expect(twice.json().errors[0].path).toBe('DataObject.Certificate');
      const badName = await send('staff', tenant(portal.acmeId), valid, [
        { ...certificate(), name: 'Certificate' },
      ]);
      expect(badName.statusCode).toBe(400);
      expect(badName.json().errors[0].path).toBe('Certificate');
      const nulName = await send('staff', tenant(portal.acmeId), valid, [
        certificate(pdf, 'a\u0000b.pdf'),
      ]);
      expect(nulName.statusCode).toBe(400);
    });

    it('ignores the empty part a browser sends for a file input left empty', async () => {
      const response = await send('staff', tenant(portal.acmeId), valid, [
        certificate(Buffer.alloc(0), ''),
      ]);
      expect(response.statusCode).toBe(200);
      expect(await db().selectFrom('profile_files').selectAll().execute()).toEqual([]);
    });
  });

  describe('bad parts', () => {
    /** A 400 (or `status`) whose errors name `part`. */
    async function expectRefused(
      response: Awaited<ReturnType<typeof send>>,
      part: string,
      status = 400,
    ) {
      expect(response.statusCode, response.body).toBe(status);
      const body = response.json();
      expect(body.errors.map((error: { path: string }) => error.path.split('.')[0])).toContain(
        part,
      );
      expect(body.message).toContain(part);
    }

    it('refuses a missing or wrong Target, TenantId, EntityId or FormData, naming it', async () => {
      const before = await snapshotDatabase(db());
      await expectRefused(await send('staff', { TenantId: portal.acmeId }, valid), 'Target');
      await expectRefused(await send('staff', { Target: 'Tenants', TenantId: 1 }, valid), 'Target');
      await expectRefused(await send('staff', { Target: 'Tenant' }, valid), 'TenantId');
      await expectRefused(
        await send('staff', { Target: 'Tenant', TenantId: '01' }, valid),
        'TenantId',
      );
      await expectRefused(
        await send('staff', { Target: 'Entity', TenantId: 1 }, valid),
        'EntityId',
      );
      await expectRefused(await send('staff', tenant(portal.acmeId), undefined), 'FormData');
      await expectRefused(
        await send('staff', tenant(portal.acmeId), '{"DataObject.LegalName":'),
        'FormData',
      );
      await expectRefused(await send('staff', tenant(portal.acmeId), '["a"]'), 'FormData');
      await expectRefused(
        await send('staff', tenant(portal.acmeId), '{"LegalName":"x"}'),
        'FormData',
      );
      await expectRefused(
        await send('staff', tenant(portal.acmeId), '{"DataObject.LegalName":5}'),
        'FormData',
      );
      await expectRefused(
        await send('staff', tenant(portal.acmeId), { LegalName: 'x'.repeat(10_001) }),
        'FormData',
      );
      expect(await snapshotDatabase(db())).toEqual(before);
    });

    it('refuses NUL and lone surrogates in every text part, naming it', async () => {
      const before = await snapshotDatabase(db());
      await expectRefused(
        await send('staff', { Target: 'Ten\u0000ant', TenantId: portal.acmeId }, valid),
        'Target',
      );
      await expectRefused(
        await send('staff', { Target: 'Entity', EntityId: 'a\u0000b' }, valid),
        'EntityId',
      );
      await expectRefused(
        await send('staff', tenant(portal.acmeId), { LegalName: 'a\u0000b' }),
        'FormData',
      );
      await expectRefused(
        await send('staff', tenant(portal.acmeId), '{"DataObject.LegalName":"a\\ud800b"}'),
        'FormData',
      );
      // A lone surrogate travels raw only in another charset than UTF-8, named by its part.
      await expectRefused(
        await send('staff', { Target: 'Entity' }, valid, [
          {
            name: 'EntityId',
            value: Buffer.from('a\udc00b', 'utf16le'),
            contentType: 'text/plain; charset=utf-16le',
          },
        ]),
        'EntityId',
      );
      expect(await snapshotDatabase(db())).toEqual(before);
    });

    it('refuses an unknown part, a part sent twice, and a FormData over its limit', async () => {
      await expectRefused(
        await send('staff', tenant(portal.acmeId), valid, [{ name: 'Extra', value: 'x' }]),
        'Extra',
      );
      await expectRefused(
        await send('staff', tenant(portal.acmeId), valid, [{ name: 'Target', value: 'Tenant' }]),
        'Target',
      );
      await expectRefused(
        await send('staff', tenant(portal.acmeId), 'x'.repeat(2 * 1024 * 1024 + 1)),
        'FormData',
        413,
      );
    });

    it('refuses a body that is not multipart (415) or is malformed (400)', async () => {
      const json = await portal.call('staff', 'POST', '/svc/formusage/submit', {
        Target: 'Tenant',
        TenantId: String(portal.acmeId),
        FormData: '{}',
      });
      expect(json.statusCode).toBe(415);
      expect(json.json().errors).toEqual([{ path: 'content-type', message: expect.any(String) }]);
      const broken = await portal.call(
        'staff',
        'POST',
        '/svc/formusage/submit',
        Buffer.from('--x\r\nContent-Disposition: form-data; name="Target"\r\n\r\nTen'),
        { 'content-type': 'multipart/form-data; boundary=x' },
      );
      expect(broken.statusCode).toBe(400);
      const noBoundary = await portal.call(
        'staff',
        'POST',
        '/svc/formusage/submit',
        Buffer.from('x'),
        {
          'content-type': 'multipart/form-data',
        },
      );
      expect(noBoundary.statusCode).toBe(400);
    });

    it('answers 404 when the profile form does not exist', async () => {
      await db().deleteFrom('forms').where('name', '=', 'EditTenantProfile').execute();
      const response = await send('staff', tenant(portal.acmeId), valid);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('The profile form EditTenantProfile does not exist.');
    });
  });

  it.each([
    ['anonymous', 401],
    ['noRole', 403],
  ] as const)('refuses %s with %i before reading the body', async (caller, status) => {
    const before = await snapshotDatabase(db());
    expect((await send(caller, tenant(portal.acmeId), valid)).statusCode).toBe(status);
    expect(await snapshotDatabase(db())).toEqual(before);
  });
});

describe('who may call what', () => {
  /** The status of every caller, in the order of CALLERS. */
  const OWN_TENANT = {
    anonymous: 401,
    staff: 200,
    admin: 200,
    acme: 200,
    globex: 404,
    noRole: 403,
  };
  const ANY_TENANT_USER = { ...OWN_TENANT, globex: 200 };
  /** The tenant profile is staff's: both tenant users are refused, whose ever it is. */
  const STAFF_ONLY = { ...OWN_TENANT, acme: 403, globex: 403 };

  it('answers every form usage call to every kind of caller as it should', async () => {
    const file = (name: string): Part => ({ name, fileName: 'f.txt', content: 'f' });
    const entities = { acme: acmeEntity, globex: globexEntity };
    for (const [tenantId, entityId] of [
      [portal.acmeId, acmeEntity],
      [portal.globexId, globexEntity],
    ] as const) {
      const profile = await send('staff', tenant(tenantId), { LegalName: 'Acme' }, [
        file('DataObject.Certificate'),
      ]);
      expect(profile.statusCode).toBe(200);
      const entityProfile = await send('staff', entity(entityId), {}, [
        file('DataObject.EntityDocument'),
      ]);
      expect(entityProfile.statusCode).toBe(200);
    }
    const calls: [string, (caller: Caller) => ReturnType<typeof get>, Record<Caller, number>][] = [
      [
        'group HTML of the entity profile form',
        (caller) => get(caller, '/svc/formusage/Risk/fieldgroup?form=EditEntityProfile'),
        ANY_TENANT_USER,
      ],
      [
        'group HTML of the tenant profile form',
        (caller) => get(caller, '/svc/formusage/Company/fieldgroup?form=EditTenantProfile'),
        STAFF_ONLY,
      ],
      // Each tenant's profile: one tenant user's own, the other's someone else's.
      ...(['acme', 'globex'] as const).flatMap((owner) => {
        const id = owner === 'acme' ? portal.acmeId : portal.globexId;
        const rows: typeof calls = [
          [
            `tenant profile of ${owner}`,
            (caller) => get(caller, `/svc/formusage/tenant/${id}`),
            STAFF_ONLY,
          ],
          [
            `tenant file of ${owner}`,
            (caller) => get(caller, `/svc/formusage/tenant/${id}/files/Certificate`),
            STAFF_ONLY,
          ],
          [
            `tenant profile save of ${owner}`,
            (caller) => send(caller, tenant(id), { LegalName: 'Acme' }),
            STAFF_ONLY,
          ],
        ];
        return rows;
      }),
      [
        'entity profile',
        (caller) => get(caller, `/svc/formusage/entity/${entities.acme}`),
        OWN_TENANT,
      ],
      [
        'entity file',
        (caller) => get(caller, `/svc/formusage/entity/${entities.acme}/files/EntityDocument`),
        OWN_TENANT,
      ],
      [
        'entity profile save',
        (caller) => send(caller, entity(entities.acme), { EntityRisk: 'No' }),
        OWN_TENANT,
      ],
      [
        "globex's entity profile",
        (caller) => get(caller, `/svc/formusage/entity/${entities.globex}`),
        { ...OWN_TENANT, acme: 404, globex: 200 },
      ],
    ];
    for (const [what, call, statuses] of calls) {
      for (const caller of CALLERS) {
        const response = await call(caller);
        expect(response.statusCode, `${what} as ${caller}`).toBe(statuses[caller]);
      }
    }
  });
});
