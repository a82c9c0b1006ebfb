import type { LightMyRequestResponse } from 'fastify';
import { sql, type Selectable } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogTable } from '../../db/schema.ts';
import { freePort } from '../../net/free-port.ts';
import { eventually } from '../../outbox/test-support.ts';
import { multipart } from '../../../test/multipart.ts';
import { isWrite, loadOperations } from '../../../test/openapi.ts';
import { CALLER_EMAILS, usePortalTestApp, type Caller } from '../../../test/portal-test-app.ts';

/**
 * Complete coverage (issue 31, part 4): every write route of the OpenAPI document leaves its
 * audit row, with the actor, the action and the target. The table below says how to exercise
 * each route; a write route added without an entry fails the first test, so that its audit row is
 * thought of when it is built.
 */

interface Exercise {
  /** Makes the call (creating what it needs first); answers the response. */
  run(context: Context): Promise<LightMyRequestResponse>;
  /** The audit row expected. */
  audit: { action: string; targetType: string; targetId?: string };
  /** Checks what the row recorded, where the action's result is the point of the row. */
  recorded?: (row: AuditRow, context: Context, response: LightMyRequestResponse) => Promise<void>;
  caller?: Caller;
}

type AuditRow = Selectable<AuditLogTable>;

/** A write route that changes nothing, and why: it has no audit row to leave. */
interface NoWrite {
  reason: string;
}

interface Context {
  call: (
    caller: Caller,
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<LightMyRequestResponse>;
  acmeId: number;
  /** Creates one of a kind by its route, answering the id (or name) to use. */
  create: (
    kind: 'documentType' | 'tenant' | 'formField' | 'form' | 'emailTemplate',
  ) => Promise<string>;
  sql: <Row>(query: ReturnType<typeof sql<Row>>) => Promise<Row[]>;
}

let serial = 0;
const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${(serial += 1)}`;

const DOCUMENT_TYPE = (id: string) => ({
  id,
  displayName: `Audit ${id}`,
  tags: ['identity'],
  apiReferences: { onfido: 'card' },
});
const TEMPLATE_VERSION = {
  fromAddress: 'Compliance <no-reply@console.example>',
  subject: 'Hello {{name}}',
  body: '<p>Hello {{name}}</p>',
  textContent: null,
  jsonSchema: JSON.stringify({
    type: 'object',
    properties: { name: { type: 'string', examples: ['Ada'] } },
  }),
};

const WRITE_ROUTES: Record<string, Exercise | NoWrite> = {
  'POST /api/documenttypes': {
    run: (c) => c.call('staff', 'POST', '/api/documenttypes', DOCUMENT_TYPE(unique('audit_dt'))),
    audit: { action: 'create', targetType: 'DocumentType' },
  },
  'PUT /api/documenttypes/{id}': {
    run: async (c) => {
      const id = await c.create('documentType');
      return c.call('staff', 'PUT', `/api/documenttypes/${id}`, {
        ...DOCUMENT_TYPE(id),
        apiReferences: { onfido: 'card-2' },
      });
    },
    audit: { action: 'update', targetType: 'DocumentType' },
  },
  'DELETE /api/documenttypes/{id}': {
    run: async (c) =>
      c.call('admin', 'DELETE', `/api/documenttypes/${await c.create('documentType')}`),
    audit: { action: 'delete', targetType: 'DocumentType' },
    caller: 'admin',
  },
  'POST /api/documenttypes/import': {
    run: (c) =>
      c.call('staff', 'POST', '/api/documenttypes/import', [DOCUMENT_TYPE(unique('audit_imp'))]),
    audit: { action: 'import', targetType: 'DocumentType' },
  },
  'DELETE /api/countries/{id}': {
    run: async (c) => {
      await c.call('staff', 'POST', '/api/countries/import', [
        { id: 901, alpha2: 'XB', alpha3: 'XBB', name: 'Audit land' },
      ]);
      return c.call('admin', 'DELETE', '/api/countries/901');
    },
    audit: { action: 'delete', targetType: 'Country', targetId: '901' },
    caller: 'admin',
  },
  'POST /api/countries/import': {
    run: (c) =>
      c.call('staff', 'POST', '/api/countries/import', [
        { id: 902, alpha2: 'XC', alpha3: 'XCC', name: 'Audit island' },
      ]),
    audit: { action: 'import', targetType: 'Country' },
  },
  'POST /api/tenants': {
    run: (c) =>
      c.call('staff', 'POST', '/api/tenants', {
        companyName: unique('Audit tenant'),
        domicileCountryId: 250,
      }),
    audit: { action: 'create', targetType: 'Tenant' },
  },
  'PUT /api/tenants/{id}': {
    run: async (c) => {
      const id = await c.create('tenant');
      return c.call('staff', 'PUT', `/api/tenants/${id}`, {
        companyName: unique('Renamed tenant'),
        domicileCountryId: 276,
      });
    },
    audit: { action: 'update', targetType: 'Tenant' },
  },
  'DELETE /api/tenants/{id}': {
    run: async (c) => c.call('admin', 'DELETE', `/api/tenants/${await c.create('tenant')}`),
    audit: { action: 'delete', targetType: 'Tenant' },
    caller: 'admin',
  },
  'POST /api/tenantusers': {
    run: (c) =>
      c.call('staff', 'POST', '/api/tenantusers', {
        email: `${unique('user')}@acme.example`,
        tenantId: c.acmeId,
      }),
    audit: { action: 'create', targetType: 'TenantUser' },
  },
  'DELETE /api/tenantusers/{id}': {
    run: async (c) => {
      const created = await c.call('staff', 'POST', '/api/tenantusers', {
        email: `${unique('gone')}@acme.example`,
        tenantId: c.acmeId,
      });
      return c.call('admin', 'DELETE', `/api/tenantusers/${created.json<{ id: number }>().id}`);
    },
    audit: { action: 'delete', targetType: 'TenantUser' },
    caller: 'admin',
  },
  'DELETE /api/EntityUser/{userId}/keys/{keyName}': {
    run: async (c) => {
      const [user] = await c.sql<{ party_user_id: string; key: string }>(sql`
        select party_user_id, (select min(k) from jsonb_object_keys(keys) as k) as key
        from entity_users where keys <> '{}'::jsonb order by party_user_id limit 1
      `);
      if (!user) throw new Error('The demo seed has no entity user with a key');
      return c.call(
        'admin',
        'DELETE',
        `/api/EntityUser/${encodeURIComponent(user.party_user_id)}/keys/${encodeURIComponent(user.key)}`,
      );
    },
    audit: { action: 'delete', targetType: 'EntityUser' },
    caller: 'admin',
  },
  'POST /api/events/test': {
    run: (c) => c.call('staff', 'POST', '/api/events/test'),
    audit: { action: 'test', targetType: 'Event' },
  },
  'POST /api/events/{id}/reset': {
    run: async (c) => {
      const [event] = await c.sql<{ id: number }>(sql`select min(id) as id from events`);
      return c.call('staff', 'POST', `/api/events/${event?.id}/reset`);
    },
    audit: { action: 'reset', targetType: 'Event' },
  },
  'POST /svc/formauthoring/fields': {
    run: (c) =>
      c.call('staff', 'POST', '/svc/formauthoring/fields', {
        name: unique('AuditField'),
        displayName: 'Audit field',
        type: 'Text',
      }),
    audit: { action: 'create', targetType: 'FormField' },
  },
  'PUT /svc/formauthoring/fields/{id}': {
    run: async (c) => {
      const id = await c.create('formField');
      return c.call('admin', 'PUT', `/svc/formauthoring/fields/${id}`, {
        name: unique('AuditFieldRenamed'),
        displayName: 'Audit field renamed',
        type: 'Text',
      });
    },
    audit: { action: 'update', targetType: 'FormField' },
    caller: 'admin',
  },
  'DELETE /svc/formauthoring/fields/{id}': {
    run: async (c) =>
      c.call('admin', 'DELETE', `/svc/formauthoring/fields/${await c.create('formField')}`),
    audit: { action: 'delete', targetType: 'FormField' },
    caller: 'admin',
  },
  'POST /svc/formauthoring': {
    run: (c) => c.call('staff', 'POST', '/svc/formauthoring', { name: unique('AuditForm') }),
    audit: { action: 'create', targetType: 'Form' },
  },
  'PUT /svc/formauthoring/{name}': {
    run: async (c) => {
      const name = await c.create('form');
      return c.call('staff', 'PUT', `/svc/formauthoring/${name}`, {
        name,
        description: 'Changed',
      });
    },
    audit: { action: 'update', targetType: 'Form' },
  },
  'DELETE /svc/formauthoring/{name}': {
    run: async (c) => c.call('admin', 'DELETE', `/svc/formauthoring/${await c.create('form')}`),
    audit: { action: 'delete', targetType: 'Form' },
    caller: 'admin',
  },
  'POST /svc/formauthoring/{nameOrId}/submit': {
    reason: 'A test submission: validated against the form, nothing is stored',
  },
  'POST /svc/formusage/submit': {
    run: async (c) => {
      // The tenant profile form made of one optional field, so that one value is a valid submission.
      const field = await c.create('formField');
      const [row] = await c.sql<{ name: string }>(
        sql`select name from form_fields where id = ${Number(field)}`,
      );
      await c.call('staff', 'PUT', '/svc/formauthoring/EditTenantProfile', {
        name: 'EditTenantProfile',
        fields: [Number(field)],
      });
      const { payload, headers } = multipart([
        { name: 'Target', value: 'Tenant' },
        { name: 'TenantId', value: String(c.acmeId) },
        { name: 'FormData', value: JSON.stringify({ [`DataObject.${row?.name}`]: 'Audited' }) },
      ]);
      return c.call('staff', 'POST', '/svc/formusage/submit', payload, headers);
    },
    audit: { action: 'update', targetType: 'Profile' },
  },
  'POST /api/emailtemplates': {
    run: (c) =>
      c.call('staff', 'POST', '/api/emailtemplates', {
        templateKey: unique('audit'),
        tenantId: null,
        partyEntityId: null,
        productType: 2,
        productScope: 0,
      }),
    audit: { action: 'create', targetType: 'EmailTemplate' },
  },
  'PUT /api/emailtemplates/{id}': {
    run: async (c) => {
      const id = await c.create('emailTemplate');
      const [row] = await c.sql<{ template_key: string }>(
        sql`select template_key from email_templates where id = ${Number(id)}`,
      );
      return c.call('staff', 'PUT', `/api/emailtemplates/${id}`, {
        templateKey: row?.template_key,
        tenantId: null,
        partyEntityId: null,
        productType: 3,
        productScope: 0,
        activeVersionId: null,
      });
    },
    audit: { action: 'update', targetType: 'EmailTemplate' },
  },
  'DELETE /api/emailtemplates/{id}': {
    run: async (c) =>
      c.call('admin', 'DELETE', `/api/emailtemplates/${await c.create('emailTemplate')}`),
    audit: { action: 'delete', targetType: 'EmailTemplate' },
    caller: 'admin',
  },
  'POST /api/emailtemplates/{id}/versions': {
    run: async (c) =>
      c.call(
        'staff',
        'POST',
        `/api/emailtemplates/${await c.create('emailTemplate')}/versions`,
        TEMPLATE_VERSION,
      ),
    audit: { action: 'create', targetType: 'EmailTemplate' },
  },
  'POST /api/emailtemplates/preview': {
    reason: 'Renders a version with sample data; nothing is stored or sent',
  },
  'POST /api/emailtemplates/testsend': {
    run: async (c) => {
      const id = await c.create('emailTemplate');
      const [row] = await c.sql<{ template_key: string }>(
        sql`select template_key from email_templates where id = ${Number(id)}`,
      );
      const version = await c.call(
        'staff',
        'POST',
        `/api/emailtemplates/${id}/versions`,
        TEMPLATE_VERSION,
      );
      await c.call('staff', 'PUT', `/api/emailtemplates/${id}`, {
        templateKey: row?.template_key,
        tenantId: null,
        partyEntityId: null,
        productType: 2,
        productScope: 0,
        activeVersionId: version.json<{ id: number }>().id,
      });
      return c.call('staff', 'POST', '/api/emailtemplates/testsend', {
        TemplateKey: row?.template_key,
        ToAddress: 'someone@recipient.example',
      });
    },
    audit: { action: 'send', targetType: 'EmailTemplate' },
  },
  'POST /api/fatf/import': {
    run: (c) =>
      c.call('staff', 'POST', '/api/fatf/import', {
        records: [
          {
            jurisdiction: 'Spain',
            reportType: 'MER',
            reportDate: '2014-12-01',
            assessmentBody: 'FATF',
          },
        ],
        options: {},
      }),
    audit: { action: 'import', targetType: 'FatfImport' },
  },
  'DELETE /api/fatf/import/{id}': {
    run: async (c) => {
      // A job no runner has taken yet, so that the cancel cannot come after its end.
      const [job] = await c.sql<{ id: number }>(sql`
        insert into fatf_imports (options, record_count, message, created_by)
        values ('{}', 0, 'Waiting to start', 'staff@example.com') returning id
      `);
      return c.call('staff', 'DELETE', `/api/fatf/import/${job?.id}`);
    },
    audit: { action: 'cancel', targetType: 'FatfImport' },
  },
  'POST /api/database-scripts/execute/{id}': {
    run: (c) => c.call('admin', 'POST', '/api/database-scripts/execute/3'),
    audit: { action: 'execute', targetType: 'DatabaseScript', targetId: '3' },
    // The script's result, as its history row says it.
    recorded: async (row, c, response) => {
      const [execution] = await c.sql<{ message: string }>(
        sql`select message from script_executions where id = ${response.json().executionId}`,
      );
      expect(execution?.message).toMatch(/^Returned \d+ row\(s\)$/);
      expect(row.after).toEqual({ status: 'Success', message: execution?.message });
      expect(row.target_name).toBe('Entities per tenant');
    },
    caller: 'admin',
  },
  'POST /svc/migrations/apply/{version}': {
    run: async (c) => {
      const [row] = await c.sql<{ version: number }>(
        sql`select max(version) as version from schema_migrations`,
      );
      return c.call('admin', 'POST', `/svc/migrations/apply/${row?.version}`);
    },
    audit: { action: 'migrate', targetType: 'Migration' },
    // Applied already: nothing ran (migrations.test.ts applies pending ones).
    recorded: async (row, c) => {
      const [newest] = await c.sql<{ version: number }>(
        sql`select max(version) as version from schema_migrations`,
      );
      expect(row.target_id).toBe(String(newest?.version));
      expect(row.after).toEqual({ success: true, executedMigrations: [] });
    },
    caller: 'admin',
  },
  'DELETE /api/dev/mail': {
    reason: "The development SMTP catcher's mailbox: memory of one instance, never in production",
  },
  'POST /api/dev/mail/catcher/start': {
    reason: 'Starts the development SMTP catcher of one instance; never in production',
  },
  'POST /api/dev/mail/catcher/stop': {
    reason: 'Stops the development SMTP catcher of one instance; never in production',
  },
  'POST /svc/migrations/seed': {
    run: async (c) => {
      // One seeded country gone (Antarctica, which nothing refers to): the seed puts it back.
      await c.sql(sql`delete from countries where id = 10`);
      return c.call('admin', 'POST', '/svc/migrations/seed');
    },
    audit: { action: 'seed', targetType: 'Migration', targetId: 'seed' },
    // The rows inserted, per table.
    recorded: async (row) => {
      expect(row.after).toEqual({
        inserted: {
          countries: 1,
          documentTypes: 0,
          formFields: 0,
          forms: 0,
          tenants: 0,
          tenantNamespaces: 0,
          tenantUsers: 0,
          entities: 0,
          entityUsers: 0,
          events: 0,
          processedEvents: 0,
        },
      });
    },
    caller: 'admin',
  },
};

describe('every write route leaves its audit row', () => {
  // The test mail goes to the development SMTP catcher of the app.
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
  });
  const h = usePortalTestApp(() => ({
    eventPollIntervalMs: 50,
    smtpCatcherPort: port,
    smtpUrl: `smtp://127.0.0.1:${port}`,
  }));
  const db = () => h.testApp.database.db;

  const context = (): Context => ({
    call: (caller, method, url, body, headers) =>
      h.call(caller, method as 'GET', url, body as object, headers),
    acmeId: h.acmeId,
    sql: async <Row>(query: ReturnType<typeof sql<Row>>) => (await query.execute(db())).rows,
    async create(kind) {
      const created = await createOf(kind);
      expect(created.statusCode, created.body).toBe(201);
      const body = created.json<{ id?: number | string; name?: string }>();
      return String(body.id ?? body.name);
    },
  });
  const createOf = (kind: Parameters<Context['create']>[0]) => {
    switch (kind) {
      case 'documentType':
        return h.call('staff', 'POST', '/api/documenttypes', DOCUMENT_TYPE(unique('audit_dt')));
      case 'tenant':
        return h.call('staff', 'POST', '/api/tenants', {
          companyName: unique('Audit tenant'),
          domicileCountryId: 250,
        });
      case 'formField':
        return h.call('staff', 'POST', '/svc/formauthoring/fields', {
          name: unique('AuditField'),
          displayName: 'Audit field',
          type: 'Text',
        });
      case 'form':
        return h.call('staff', 'POST', '/svc/formauthoring', { name: unique('AuditForm') });
      case 'emailTemplate':
        return h.call('staff', 'POST', '/api/emailtemplates', {
          templateKey: unique('audit'),
          tenantId: null,
          partyEntityId: null,
          productType: 2,
          productScope: 0,
        });
    }
  };

  it('has an entry for every write route of the OpenAPI document, and none for another', async () => {
    const writes = (await loadOperations(h.testApp.app))
      .filter(isWrite)
      .map((operation) => `${operation.method} ${operation.path}`);
    expect(writes.sort()).toEqual(Object.keys(WRITE_ROUTES).sort());
  });

  it.each(
    Object.entries(WRITE_ROUTES).filter(([, entry]) => 'run' in entry) as [string, Exercise][],
  )('%s', async (_route, { run, audit, recorded, caller = 'staff' }) => {
    const [mark] = (
      await sql<{ id: number }>`select coalesce(max(id), 0)::int as id from events`.execute(db())
    ).rows;
    const response = await run(context());
    expect(response.statusCode, response.body).toBeLessThan(300);
    const row = await eventually(async () =>
      db()
        .selectFrom('audit_log')
        .selectAll()
        .where('event_id', '>', mark?.id ?? 0)
        .where('action', '=', audit.action)
        .where('target_type', '=', audit.targetType)
        .where('actor', '=', CALLER_EMAILS[caller as keyof typeof CALLER_EMAILS])
        .orderBy('id', 'desc')
        .executeTakeFirst(),
    );
    expect(row.occurred_at).toBeInstanceOf(Date);
    if (audit.targetId !== undefined) expect(row.target_id).toBe(audit.targetId);
    // A change says what changed: every write but a test event and a reset has before or after.
    if (!['test', 'reset'].includes(audit.action)) {
      expect(row.before !== null || row.after !== null).toBe(true);
    }
    await recorded?.(row, context(), response);
  });

  it("keeps only the test mail recipient's domain", async () => {
    const rows = await db()
      .selectFrom('audit_log')
      .select(['after', 'metadata'])
      .where('action', '=', 'send')
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.after).toMatchObject({ recipientDomain: 'recipient.example' });
      expect(JSON.stringify(row)).not.toContain('someone@');
    }
  });
});
