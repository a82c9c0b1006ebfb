import ExcelJS from 'exceljs';
import {
  COMPLIANCE_FIELDS,
  EFFECTIVENESS_FIELDS,
  entityUserTypeLabel,
  eventStatus,
  neutraliseFormula,
  PRODUCT_SCOPES,
  PRODUCT_TYPES,
  type AuditEntry,
  type Country,
  type DocumentType,
  type EmailTemplateListItem,
  type Entity,
  type EntityUser,
  type EventItem,
  type ExportValue,
  type FormField,
  type FormListItem,
  type StoredRating,
  type Tenant,
  type TenantUser,
} from '@console/contracts';
import { readCsvExport } from '@console/contracts/testing';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTML_INJECTION, SQL_INJECTION } from '../../test/callers.ts';
import { countTables } from '../../test/expectations.ts';
import { usePortalTestApp, type Caller } from '../../test/portal-test-app.ts';
import { EXPORTS_AT_ONCE_MAX } from './export.ts';

/**
 * Every list's export (issue 31, part 5) through HTTP: the file holds the list's rows under the
 * same filters, every page of them, with the roles and the tenant scope of the list.
 */

// Without workers: an event's status cannot change between the list's read and the export's.
const portal = usePortalTestApp({ eventWorkersEnabled: false });
const call = (caller: Caller, url: string) => portal.call(caller, 'GET', url);

/** A cell the test expects: a value as the list answers it, or an object kept as JSON text. */
type Expected = ExportValue | { json: unknown };

interface ListCase {
  name: string;
  /** The list's path with its filters, and its export's (`?format=csv` appended by the test). */
  list: string;
  export: string;
  /** Every row of the list under its filters, through as many pages as it takes. */
  rows(): Promise<unknown[]>;
  /** An item of the list as the export's cells, by header (the headers the list has a value for). */
  cells(item: never): Record<string, Expected>;
  /** Who may export: the list's own roles. */
  tenantUsers: boolean;
}

/** The rows of a JSON list answered whole. */
const whole = (path: string) => async () => (await call('staff', path)).json() as unknown[];

/** Every page of an offset-paged list (`?offset&limit`). */
const offsetPages =
  (path: string, caller: Caller = 'staff') =>
  async () => {
    const rows: unknown[] = [];
    for (let offset = 0; ; offset += 1000) {
      const separator = path.includes('?') ? '&' : '?';
      const page = (await call(caller, `${path}${separator}offset=${offset}&limit=1000`)).json();
      rows.push(...page.data);
      if (offset + 1000 >= page.totalCount) return rows;
    }
  };

/** Every page of the events list (`?page&pageSize`, at most 100 a page). */
const eventPages =
  (path: string, caller: Caller = 'staff') =>
  async () => {
    const rows: unknown[] = [];
    for (let page = 1; ; page++) {
      const separator = path.includes('?') ? '&' : '?';
      const answer = (await call(caller, `${path}${separator}page=${page}&pageSize=100`)).json();
      rows.push(...answer.data);
      if (page * 100 >= answer.totalCount) return rows;
    }
  };

const iso = (value: string | null) => value;
const joined = (values: readonly (string | number)[]) => values.join(', ');

const tenantCells = (tenant: Tenant) => ({
  ID: tenant.id,
  'Company Name': tenant.companyName,
  'Domicile Country ID': tenant.domicileCountryId,
  'Domicile Country': tenant.domicileCountryName,
  Namespaces: joined(tenant.namespaces),
});

const entityCells = (entity: Entity) => ({
  'Party Entity ID': entity.partyEntityId,
  'Entity Name': entity.displayName,
  'Tenant ID': entity.tenantId,
  Tenant: entity.tenantName,
  Country: entity.country,
  Names: { json: entity.names.names },
});

const entityUserCells = (user: EntityUser) => ({
  'Party User ID': user.partyUserId,
  'Party Entity ID': user.partyEntityId,
  'Entity Name': user.entityName,
  'Tenant ID': user.tenantId,
  Type: entityUserTypeLabel(user.type),
  State: user.state,
  Email: user.email,
  'Preferred Name': user.metadata.preferredName ?? null,
  'Given Name': user.metadata.givenName ?? null,
  'Family Name': user.metadata.familyName ?? null,
  Keys: { json: user.keys },
});

const eventCells = (event: EventItem) => ({
  ID: event.id,
  'Created At': event.createdAt,
  'Event Name': event.eventName,
  'Tenant ID': event.tenantId,
  'Entity ID': event.entityId,
  'Unique ID': event.uniqueId,
  Status: eventStatus(event),
  Workers:
    event.processedEvents.length === 0
      ? null
      : event.processedEvents
          .map(
            (record) =>
              `${record.workerName}: ${
                record.hasError
                  ? `error${record.errorMessage === null ? '' : `: ${record.errorMessage}`}`
                  : record.processedAt
                    ? 'processed'
                    : 'waiting'
              }`,
          )
          .join('; '),
  Metadata: { json: event.metadata },
});

const auditCells = (entry: AuditEntry) => ({
  ID: entry.id,
  Time: entry.occurredAt,
  Actor: entry.actor,
  Action: entry.action,
  'Target Type': entry.targetType,
  'Target ID': entry.targetId,
  'Target Name': entry.targetName,
  'Tenant ID': entry.tenantId,
  Tenant: entry.tenantName,
  Event: entry.eventName,
  Before: entry.before === null ? null : { json: entry.before },
  After: entry.after === null ? null : { json: entry.after },
});

const LISTS: ListCase[] = [
  {
    name: 'tenants',
    list: '/api/tenants',
    export: '/api/tenants/export',
    rows: whole('/api/tenants'),
    cells: tenantCells,
    tenantUsers: false,
  },
  {
    name: 'tenant-users',
    list: '/api/tenantusers',
    export: '/api/tenantusers/export',
    rows: whole('/api/tenantusers'),
    cells: (user: TenantUser) => ({
      ID: user.id,
      Email: user.email,
      'Tenant ID': user.tenantId,
      Tenant: user.tenantCompanyName,
    }),
    tenantUsers: false,
  },
  {
    name: 'entities',
    list: '/api/Entity?sort=-partyEntityId',
    export: '/api/Entity/export?sort=-partyEntityId',
    rows: offsetPages('/api/Entity?sort=-partyEntityId'),
    cells: entityCells,
    tenantUsers: true,
  },
  {
    name: 'entity-users',
    list: '/api/EntityUser',
    export: '/api/EntityUser/export',
    rows: offsetPages('/api/EntityUser'),
    cells: entityUserCells,
    tenantUsers: true,
  },
  {
    name: 'events',
    list: '/api/events?sortOrder=asc&eventName=e',
    export: '/api/events/export?sortOrder=asc&eventName=e',
    rows: eventPages('/api/events?sortOrder=asc&eventName=e'),
    cells: eventCells,
    tenantUsers: true,
  },
  {
    name: 'audit-log',
    list: '/api/audit?targetType=Tenant&from=2020-01-01',
    export: '/api/audit/export?targetType=Tenant&from=2020-01-01',
    rows: eventPages('/api/audit?targetType=Tenant&from=2020-01-01'),
    cells: auditCells,
    tenantUsers: false,
  },
  {
    name: 'countries',
    list: '/api/countries',
    export: '/api/countries/export',
    rows: whole('/api/countries'),
    cells: (country: Country) => ({
      ID: country.id,
      'Country Name': country.countryName,
      'Alpha-2 Code': country.alpha2Code,
      'Alpha-3 Code': country.alpha3Code,
      Sequence: country.sequence,
      'Valid From': iso(country.validFrom),
      'Valid To': iso(country.validTo),
      Risk: country.cachedRisk,
      'Risk Updated At': iso(country.cachedRiskAt),
    }),
    tenantUsers: false,
  },
  {
    name: 'document-types',
    list: '/api/documenttypes',
    export: '/api/documenttypes/export',
    rows: whole('/api/documenttypes'),
    cells: (type: DocumentType) => ({
      ID: type.id,
      'Display Name': type.displayName,
      Tags: joined(type.tags),
      'API References': { json: type.apiReferences },
      Sequence: type.sequence,
      'Valid From': iso(type.validFrom),
      'Valid To': iso(type.validTo),
      'Validity Years': type.validityPeriod?.years ?? null,
      'Validity Months': type.validityPeriod?.months ?? null,
      'Validity Days': type.validityPeriod?.days ?? null,
    }),
    tenantUsers: false,
  },
  {
    name: 'forms',
    list: '/svc/formauthoring/list',
    export: '/svc/formauthoring/list/export',
    rows: whole('/svc/formauthoring/list'),
    cells: (form: FormListItem) => ({
      ID: form.id,
      Name: form.name,
      'Created At': form.createdAt,
      'Updated At': form.updatedAt,
    }),
    tenantUsers: false,
  },
  {
    name: 'form-fields',
    list: '/svc/formauthoring/allfields',
    export: '/svc/formauthoring/allfields/export',
    rows: whole('/svc/formauthoring/allfields'),
    cells: (field: FormField) => ({
      ID: field.id,
      'Storage Name': field.name,
      'Display Name': field.displayName,
      Type: field.type,
      Section: field.section,
      Order: field.order,
      'UI Group': field.uiGroup,
      Required: field.required,
      'Validation Error Message': field.validationErrorMessage,
      'Max Length': field.maxLength,
      Pattern: field.pattern,
      Options: joined(field.options),
      'Require Fields': joined(field.requireFields),
      'Alias For': field.aliasFor,
      Note: field.note,
      Print: field.print,
      'Print Label': field.printLabel,
      'Print Sequence': field.printSequence,
      'View Permissions': joined(field.viewPermissions),
      'Edit Permissions': joined(field.editPermissions),
      Tags: joined(field.tags),
      'API References': { json: field.apiReferences },
      'Conditional Requirements': { json: field.conditionalRequirements },
      'Created At': field.createdAt,
      'Updated At': field.updatedAt,
    }),
    tenantUsers: false,
  },
  {
    name: 'email-templates',
    list: '/api/emailtemplates',
    export: '/api/emailtemplates/export',
    rows: whole('/api/emailtemplates'),
    cells: (template: EmailTemplateListItem) => ({
      ID: template.id,
      'Template Key': template.templateKey,
      'Tenant ID': template.tenantId,
      'Party Entity ID': template.partyEntityId,
      'Product Type': PRODUCT_TYPES[template.productType] ?? template.productType,
      'Product Scope': PRODUCT_SCOPES[template.productScope] ?? template.productScope,
      'Active Version': template.activeVersionNumber,
      'Created At': template.createdAt,
      'Updated At': template.updatedAt,
    }),
    tenantUsers: false,
  },
  {
    name: 'fatf-data',
    list: '/api/fatf/ratings',
    export: '/api/fatf/ratings/export',
    rows: offsetPages('/api/fatf/ratings'),
    cells: (rating: StoredRating) => ({
      Jurisdiction: rating.jurisdiction,
      'Report Type': rating.reportType,
      'Report Date': rating.reportDate,
      'Assessment Body': rating.assessmentBody,
      ...Object.fromEntries(
        EFFECTIVENESS_FIELDS.map((field) => [
          field.toUpperCase(),
          rating.effectiveness[field] ?? null,
        ]),
      ),
      ...Object.fromEntries(
        COMPLIANCE_FIELDS.map((field) => [field.toUpperCase(), rating.compliance[field] ?? null]),
      ),
      Upgrades: rating.upgrades,
      Downgrades: rating.downgrades,
      'Report URL': rating.reportUrl,
    }),
    tenantUsers: false,
  },
];

/** A CSV cell as the expected value reads once written (null empty, text neutralised). */
function csvText(value: ExportValue): string {
  if (value === null) return '';
  return typeof value === 'string' ? neutraliseFormula(value) : String(value);
}

/** Asserts that the CSV `records` (header first) hold exactly `items`, in order, cell by cell. */
function expectRecords(records: string[][], items: unknown[], cells: ListCase['cells']): void {
  const [header = [], ...rows] = records;
  expect(rows).toHaveLength(items.length);
  items.forEach((item, index) => {
    const row = rows[index] ?? [];
    for (const [name, expected] of Object.entries(cells(item as never))) {
      const column = header.indexOf(name);
      expect(column, `column ${name}`).toBeGreaterThanOrEqual(0);
      const cell = row[column];
      if (expected !== null && typeof expected === 'object') {
        expect(JSON.parse(cell ?? ''), `${name} of row ${index}`).toEqual(expected.json);
      } else {
        expect(cell, `${name} of row ${index}`).toBe(csvText(expected));
      }
    }
  });
}

async function csvOf(caller: Caller, path: string): Promise<string[][]> {
  const separator = path.includes('?') ? '&' : '?';
  const response = await call(caller, `${path}${separator}format=csv`);
  expect(response.statusCode, response.body).toBe(200);
  return readCsvExport(response.body);
}

/** The rows of an xlsx answer's sheets, header first, each as its cells' values. */
async function xlsxRows(response: LightMyRequestResponse): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  // ExcelJS types its input as an ArrayBuffer-backed Buffer; the payload is one.
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.eachSheet((sheet) => {
    sheet.eachRow((row) => {
      // row.values is 1-based: cell A is at index 1.
      rows.push((row.values as unknown[]).slice(1));
    });
  });
  return rows;
}

beforeAll(async () => {
  const { db } = portal.testApp.database;
  // Audit rows as the audit-trail worker writes them (the workers are off here): two about
  // tenants, in and out of the date filter, one with a name a spreadsheet would run, and one
  // about another kind of record that the filter leaves out.
  const tenant = await db.selectFrom('tenants').select('id').limit(1).executeTakeFirstOrThrow();
  await db
    .insertInto('audit_log')
    .values(
      (
        [
          ['2021-03-04T05:06:07.089Z', 'Tenant', 'Acme', tenant.id],
          ['2022-01-01T00:00:00.000Z', 'Tenant', '=HYPERLINK("x")', null],
          ['2019-12-31T23:59:59.999Z', 'Tenant', 'Before the filter', null],
          ['2023-01-01T00:00:00.000Z', 'Country', 'Spain', null],
        ] as const
      ).map(([occurredAt, targetType, targetName, tenantId], index) => ({
        event_id: 1_000_000 + index,
        event_name: `${targetType}Updated`,
        tenant_id: tenantId,
        entity_id: null,
        actor: 'admin@example.com',
        action: 'update',
        before: index === 1 ? null : JSON.stringify({ name: 'old', tags: ['a'] }),
        after: JSON.stringify({ name: targetName, nested: { key: [1, 2] } }),
        metadata: JSON.stringify({ actor: 'admin@example.com' }),
        occurred_at: occurredAt,
        target_type: targetType,
        target_id: String(100 + index),
        target_name: targetName,
      })),
    )
    .execute();
  // Two stored ratings for the FATF data list, one with a country.
  const job = await db
    .insertInto('fatf_imports')
    .values({ status: 'pending', options: JSON.stringify({}), record_count: 2, created_by: 'test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('fatf_ratings')
    .values([
      {
        jurisdiction: 'Spain',
        report_type: 'MER',
        report_date: '2014-12-01',
        assessment_body: 'FATF',
        effectiveness: JSON.stringify({ io1: 'SE' }),
        compliance: JSON.stringify({ r1: 'LC', r2: 'C' }),
        upgrades: 2,
        import_id: job.id,
      },
      {
        jurisdiction: '=cmd|calc',
        report_type: 'FUR',
        report_date: '2023-05-31',
        assessment_body: 'MONEYVAL',
        effectiveness: JSON.stringify({}),
        compliance: JSON.stringify({}),
        report_url: 'https://www.fatf-gafi.org/x.html',
        import_id: job.id,
      },
    ])
    .execute();
});

describe.each(LISTS)('GET $export', (list) => {
  it('holds every row of the list, in its order, cell by cell', async () => {
    const rows = await list.rows();
    expect(rows.length).toBeGreaterThan(0);
    expectRecords(await csvOf('staff', list.export), rows, list.cells);
  });

  it('answers an attachment named after the list and the time, UTF-8 with BOM', async () => {
    const before = new Date();
    const response = await call('admin', list.export);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const name = /^attachment; filename="([^"]+)"$/.exec(
      String(response.headers['content-disposition']),
    )?.[1];
    expect(name).toMatch(new RegExp(`^${list.name}-\\d{4}-\\d\\d-\\d\\dT\\d{4}Z\\.csv$`));
    expect(name?.slice(list.name.length + 1, list.name.length + 11)).toBe(
      before.toISOString().slice(0, 10),
    );
  });

  it('writes the same rows as xlsx, read back by ExcelJS', async () => {
    const csv = await csvOf('staff', list.export);
    const separator = list.export.includes('?') ? '&' : '?';
    const response = await call('staff', `${list.export}${separator}format=xlsx`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(String(response.headers['content-disposition'])).toMatch(/\.xlsx"$/);
    const rows = await xlsxRows(response);
    // Text cells hold the values as they are (a text cell is never run); CSV neutralised them.
    expect(
      rows.map((row) =>
        csv[0]?.map((_header, index) => {
          const value = row[index];
          return value === undefined || value === null ? '' : csvText(value as ExportValue);
        }),
      ),
    ).toEqual(csv);
  });

  it('refuses anonymous callers (401) and callers without a role (403)', async () => {
    expect((await call('anonymous', list.export)).statusCode).toBe(401);
    expect((await call('noRole', list.export)).statusCode).toBe(403);
  });

  it.each(['pdf', 'csv;drop table tenants', SQL_INJECTION, HTML_INJECTION, 'x'.repeat(5000)])(
    'answers 400 for format=%s, naming it',
    async (format) => {
      const separator = list.export.includes('?') ? '&' : '?';
      const response = await call(
        'staff',
        `${list.export}${separator}format=${encodeURIComponent(format)}`,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('format must be csv or xlsx');
    },
  );

  if (!list.tenantUsers) {
    it('refuses tenant users (403), as the list does', async () => {
      expect((await call('acme', list.list)).statusCode).toBe(
        list.name === 'countries' || list.name === 'document-types' ? 200 : 403,
      );
      expect((await call('acme', list.export)).statusCode).toBe(403);
    });
  }
});

describe('a tenant user', () => {
  it.each([
    ['/api/Entity', '/api/Entity/export', 'Tenant ID'],
    ['/api/EntityUser', '/api/EntityUser/export', 'Tenant ID'],
  ])(
    "exports its own tenant's rows of %s only, as its list shows them",
    async (path, exportPath) => {
      const list = LISTS.find((candidate) => candidate.export.startsWith(exportPath));
      if (!list) throw new Error(`No list ${exportPath}`);
      const rows = await offsetPages(path, 'acme')();
      expect(rows.length).toBeGreaterThan(0);
      const records = await csvOf('acme', exportPath);
      expectRecords(records, rows, list.cells);
      const tenantColumn = records[0]?.indexOf('Tenant ID') ?? -1;
      expect(new Set(records.slice(1).map((row) => row[tenantColumn]))).toEqual(
        new Set([String(portal.acmeId)]),
      );
      // Staff see more: the other tenant's rows are there, and not in the tenant user's file.
      expect((await csvOf('staff', exportPath)).length).toBeGreaterThan(records.length);
    },
  );

  it("exports its own tenant's events only", async () => {
    const rows = await eventPages('/api/events', 'acme')();
    const records = await csvOf('acme', '/api/events/export');
    expectRecords(records, rows, eventCells);
    const column = records[0]?.indexOf('Tenant ID') ?? -1;
    expect(records.slice(1).every((row) => row[column] === String(portal.acmeId))).toBe(true);
  });

  it("gets 404 for another tenant's id, as from the list, and its own with tenantId", async () => {
    for (const path of ['/api/Entity/export', '/api/EntityUser/export']) {
      const other = await call('acme', `${path}?tenantId=${portal.globexId}`);
      expect(other.statusCode).toBe(404);
      expect(other.json().message).toBe(`Tenant ${portal.globexId} not found.`);
      expect((await call('acme', `${path}?tenantId=${portal.acmeId}`)).statusCode).toBe(200);
    }
  });
});

describe('filters', () => {
  it("staff export one tenant's entities with tenantId, as the list answers them", async () => {
    const path = `/api/Entity?tenantId=${portal.globexId}`;
    expectRecords(
      await csvOf('staff', `/api/Entity/export?tenantId=${portal.globexId}`),
      await offsetPages(path)(),
      entityCells,
    );
  });

  it('answer 404 for a tenant that does not exist', async () => {
    const response = await call('staff', '/api/EntityUser/export?tenantId=999999');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Tenant 999999 not found.');
  });

  it.each([
    ['/api/events/export?erroredOnly=true', '/api/events?erroredOnly=true'],
    ['/api/events/export?unprocessedOnly=true', '/api/events?unprocessedOnly=true'],
    ['/api/events/export?eventName=nothing-like-this', '/api/events?eventName=nothing-like-this'],
    ['/api/events/export?eventName=%25', '/api/events?eventName=%25'],
  ])('%s holds what %s shows', async (exportPath, listPath) => {
    expectRecords(await csvOf('staff', exportPath), await eventPages(listPath)(), eventCells);
  });

  it.each([
    [
      '/api/audit/export?actor=ADMIN@example.com&action=update',
      '/api/audit?actor=ADMIN@example.com&action=update',
    ],
    ['/api/audit/export?q=hyperlink', '/api/audit?q=hyperlink'],
    [
      '/api/audit/export?targetType=Country&targetId=103',
      '/api/audit?targetType=Country&targetId=103',
    ],
    ['/api/audit/export?to=2020-01-01', '/api/audit?to=2020-01-01'],
  ])('%s holds what %s shows', async (exportPath, listPath) => {
    const rows = await eventPages(listPath)();
    expect(rows.length).toBeGreaterThan(0);
    expectRecords(await csvOf('staff', exportPath), rows, auditCells);
  });

  it.each([
    ['/api/Entity/export?tenantId=acme', 'tenantId must be a whole number from 1 to 2147483647'],
    ['/api/EntityUser/export?tenantId=0', 'tenantId must be a whole number from 1 to 2147483647'],
    ['/api/Entity/export?sort=name', 'sort must be one of partyEntityId, -partyEntityId'],
    ['/api/events/export?sortOrder=sideways', 'sortOrder must be desc or asc'],
    ['/api/events/export?erroredOnly=yes', 'erroredOnly must be true or false'],
    [`/api/events/export?eventName=${'x'.repeat(101)}`, 'eventName must be 100 characters or less'],
    [
      '/api/audit/export?from=2025-02-30',
      'from must be a date (yyyy-MM-dd) or a date and time with its offset (ISO 8601)',
    ],
    ['/api/audit/export?from=2021-01-02&to=2021-01-01', 'to must not be before from'],
    [
      '/api/audit/export?tenantId=-1',
      'tenantId must be a whole number from 1 to 2147483647, in plain digits',
    ],
  ])("%s answers 400 with the list's message", async (path, message) => {
    const response = await call('staff', path);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('keep injected text as data: nothing runs, nothing is dropped', async () => {
    const response = await call(
      'staff',
      `/api/events/export?eventName=${encodeURIComponent(SQL_INJECTION.slice(0, 90))}`,
    );
    expect(response.statusCode).toBe(200);
    expect(readCsvExport(response.body)).toHaveLength(1);
    expect(
      await countTables(portal.testApp.database.db, ['tenants', 'countries', 'document_types']),
    ).toBe(3);
  });
});

describe('formula neutralisation', () => {
  it('writes text a spreadsheet would run with a leading apostrophe, in CSV only', async () => {
    const names = ['=HYPERLINK("http://x","y")', '+1+2', '-2+3+cmd', '@SUM(A1)', '\t=1', '\r=1'];
    const ids: number[] = [];
    const country = (await call('staff', '/api/countries')).json()[0] as Country;
    for (const companyName of names) {
      const created = await portal.call('staff', 'POST', '/api/tenants', {
        companyName: `${companyName}`,
        domicileCountryId: country.id,
        namespaces: [`formula${ids.length}x`],
      });
      expect(created.statusCode, created.body).toBe(201);
      ids.push(created.json().id);
    }
    const records = await csvOf('staff', '/api/tenants/export');
    const byId = new Map(records.slice(1).map((row) => [row[0], row[1]]));
    const stored = (await call('staff', '/api/tenants')).json() as Tenant[];
    for (const id of ids) {
      const name = stored.find((tenant) => tenant.id === id)?.companyName ?? '';
      expect(byId.get(String(id))).toBe(`'${name}`);
    }
    // The FATF row named like a formula, too.
    const ratings = await csvOf('staff', '/api/fatf/ratings/export');
    expect(ratings.some((row) => row[0] === "'=cmd|calc")).toBe(true);

    const xlsx = await xlsxRows(await call('staff', '/api/tenants/export?format=xlsx'));
    const xlsxNames = new Map(xlsx.map((row) => [String(row[0]), row[1]]));
    for (const id of ids) {
      const name = stored.find((tenant) => tenant.id === id)?.companyName;
      expect(xlsxNames.get(String(id))).toBe(name);
    }
    for (const id of ids) {
      expect((await portal.call('staff', 'DELETE', `/api/tenants/${id}`)).statusCode).toBe(204);
    }
  });
});

describe('at 10^4 rows', () => {
  it("holds every one of a tenant's 10,000 entities, as the list's pages show them", async () => {
    const { db } = portal.testApp.database;
    await sql`
      insert into entities (party_entity_id, tenant_id, names, country)
      select 'bulk-' || lpad(i::text, 5, '0'), ${portal.globexId},
        jsonb_build_object('names', jsonb_build_object('entityName', 'Bulk "' || i || '", =x')),
        'DE'
      from generate_series(1, 10000) as i
    `.execute(db);
    try {
      const path = `/api/Entity?tenantId=${portal.globexId}`;
      const rows = await offsetPages(path)();
      expect(rows.length).toBeGreaterThanOrEqual(10_000);
      const records = await csvOf('staff', `/api/Entity/export?tenantId=${portal.globexId}`);
      expectRecords(records, rows, entityCells);
      const xlsx = await xlsxRows(
        await call('staff', `/api/Entity/export?tenantId=${portal.globexId}&format=xlsx`),
      );
      expect(xlsx).toHaveLength(records.length);
    } finally {
      await sql`delete from entities where party_entity_id like 'bulk-%'`.execute(db);
    }
  });
});

describe('streaming', () => {
  /** The sessions of this database inside a transaction that waits for its client. */
  async function waitingExports(): Promise<number> {
    const { rows } = await sql<{ count: number }>`
      select count(*)::int as count from pg_stat_activity
      where datname = current_database() and state = 'idle in transaction'
        and query like 'fetch forward%'
    `.execute(portal.testApp.database.db);
    return rows[0]?.count ?? 0;
  }

  /** An export of the bulk events over a real connection, its first bytes read, then no more. */
  async function stalledExport(): Promise<AbortController> {
    const controller = new AbortController();
    const response = await fetch(
      `${portal.testApp.config.publicUrl}/api/events/export?eventName=BulkEvent`,
      {
        headers: {
          authorization: `Bearer ${await portal.testApp.tokenFor('staff@example.com')}`,
          // The bytes as they are: gzipped, the repeated padding would fit in the sockets' buffers.
          'accept-encoding': 'identity',
        },
        signal: controller.signal,
      },
    );
    expect(response.status).toBe(200);
    const first = await response.body?.getReader().read();
    expect(first?.value?.byteLength).toBeGreaterThan(0);
    return controller;
  }

  beforeAll(async () => {
    // About 60 MB of CSV: far more than the sockets' buffers hold.
    await sql`
      insert into events (event_name, unique_id, metadata, is_processed)
      select 'BulkEvent', 'bulk-' || i, jsonb_build_object('padding', repeat('x', 1200)), true
      from generate_series(1, 50000) as i
    `.execute(portal.testApp.database.db);
  });
  afterAll(async () => {
    await sql`delete from events where event_name = 'BulkEvent'`.execute(
      portal.testApp.database.db,
    );
  });

  it('sends rows while it reads them, and a client that leaves frees the transaction', async () => {
    const controller = await stalledExport();
    // The client reads no more: the server waits for it, its cursor open, the rest unread.
    await expect.poll(waitingExports, { timeout: 10_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await waitingExports()).toBe(1);
    controller.abort();
    await expect.poll(waitingExports, { timeout: 10_000 }).toBe(0);
    // The connection went back to the pool: the next export runs.
    expect((await call('staff', '/api/tenants/export')).statusCode).toBe(200);
  });

  it(`runs ${EXPORTS_AT_ONCE_MAX} exports at once; one more is a 503 with Retry-After`, async () => {
    const running: AbortController[] = [];
    try {
      for (let index = 0; index < EXPORTS_AT_ONCE_MAX; index++) running.push(await stalledExport());
      const refused = await call('staff', '/api/tenants/export');
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('10');
      expect(refused.json().message).toBe(
        'Too many exports are running. Please try again shortly.',
      );
      // The lists still answer: the exports hold only their own connections.
      expect((await call('staff', '/api/tenants')).statusCode).toBe(200);
    } finally {
      for (const controller of running) controller.abort();
    }
    await expect.poll(waitingExports, { timeout: 10_000 }).toBe(0);
    expect((await call('staff', '/api/tenants/export')).statusCode).toBe(200);
  });
});
