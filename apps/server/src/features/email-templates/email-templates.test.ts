import { beforeEach, describe, expect, it } from 'vitest';
import { signInCallers, stamp } from '../../../test/callers.ts';
import { expectRefusal } from '../../../test/expectations.ts';
import { eventsAfter, lastEventId } from '../../../test/recorded-events.ts';
import { REFERENCE_DATA_CALLERS } from '../../../test/reference-data.ts';
import { useSuiteFixture } from '../../../test/suite-fixture.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { SmtpCatcher } from '../../outbox/smtp-catcher.ts';

/**
 * The email template calls (spec part 2, section 7) on a server whose SMTP is a catcher of the
 * suite's own, with the Acme tenant (and its portal user) and an entity of it.
 */
const suite = useSuiteFixture(async () => {
  const catcher = new SmtpCatcher();
  const port = await catcher.start(0);
  const testApp = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
  const { db } = testApp.database;
  await db
    .insertInto('countries')
    .values({ id: 840, alpha2: 'US', alpha3: 'USA', name: 'United States', ...stamp })
    .execute();
  const tenant = await db
    .insertInto('tenants')
    .values({ company_name: 'Acme', domicile_country_id: 840, ...stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('tenant_users')
    .values({ email: REFERENCE_DATA_CALLERS.tenant, tenant_id: tenant.id, ...stamp })
    .execute();
  await db
    .insertInto('entities')
    .values({
      party_entity_id: 'ent-1',
      tenant_id: tenant.id,
      names: JSON.stringify({ names: { entityName: 'Acme Trading' } }),
    })
    .execute();
  const callers = await signInCallers(testApp, REFERENCE_DATA_CALLERS);
  return {
    testApp,
    catcher,
    port,
    callers,
    tenantId: tenant.id,
    close: async () => {
      await testApp.close();
      await catcher.stop();
    },
  };
});

type Caller = keyof typeof REFERENCE_DATA_CALLERS | 'anonymous';
const call = (
  caller: Caller,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) => suite().callers.call(caller, method, url, body);
const db = () => suite().testApp.database.db;

beforeEach(async () => {
  await db()
    .deleteFrom('email_templates')
    .where('template_key', '<>', 'tenant-user-invitation')
    .execute();
  suite().catcher.clear();
});

const WELCOME = {
  templateKey: 'welcome',
  tenantId: null,
  partyEntityId: null,
  productType: 2,
  productScope: 0,
};

/** A real-world shaped transactional mail: tables, a loop, placeholders, a script that must not survive. */
const RECEIPT_HTML = `<!doctype html><html><head><style>td{padding:4px}</style></head><body>
<table role="presentation" width="100%"><tr><td>
<h1>Hello {{customer.name}}</h1>
<p>Your case {{caseId}} was reviewed.</p>
<table>{{#each items}}<tr><td>{{this.label}}</td><td>{{this.status}}</td></tr>{{/each}}</table>
<a href="{{link}}">Open your case</a>
<img src="https://tracker.example/pixel.gif" alt="">
<script>alert('x')</script>
</td></tr></table></body></html>`;

const RECEIPT_SCHEMA = JSON.stringify({
  type: 'object',
  required: ['customer', 'caseId', 'items', 'link'],
  properties: {
    customer: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', examples: ['Jane <b>Doe</b> & Co'] } },
    },
    caseId: { type: 'string', examples: ['KYC-42'] },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { label: { type: 'string' }, status: { enum: ['passed', 'failed'] } },
      },
    },
    link: { type: 'string', format: 'uri' },
  },
});

const VERSION = {
  fromAddress: 'Compliance <no-reply@console.example>',
  subject: 'Case {{caseId}} for {{customer.name}}',
  body: RECEIPT_HTML,
  textContent: null,
  jsonSchema: RECEIPT_SCHEMA,
};

async function createTemplate(body: object = WELCOME): Promise<number> {
  const response = await call('staff', 'POST', '/api/emailtemplates', body);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: number }).id;
}

async function addVersion(id: number, body: object = VERSION) {
  const response = await call('staff', 'POST', `/api/emailtemplates/${id}/versions`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; versionNumber: number };
}

async function activate(id: number, activeVersionId: number | null, template: object = WELCOME) {
  return call('staff', 'PUT', `/api/emailtemplates/${id}`, { id, ...template, activeVersionId });
}

describe('permissions', () => {
  it.each([
    ['anonymous', 401],
    ['tenant', 403],
    ['noRole', 403],
  ] as const)('refuses %s on every call (%i)', async (caller, status) => {
    const id = await createTemplate();
    const calls: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['GET', '/api/emailtemplates'],
      ['GET', `/api/emailtemplates/${id}`],
      ['POST', '/api/emailtemplates', { ...WELCOME, templateKey: 'other' }],
      ['PUT', `/api/emailtemplates/${id}`, { ...WELCOME, activeVersionId: null }],
      ['DELETE', `/api/emailtemplates/${id}`],
      ['POST', `/api/emailtemplates/${id}/versions`, VERSION],
      ['POST', '/api/emailtemplates/preview', VERSION],
      [
        'POST',
        '/api/emailtemplates/testsend',
        { ToAddress: 'a@b.example', TemplateKey: 'welcome' },
      ],
    ];
    for (const [method, url, body] of calls) {
      expect((await call(caller, method, url, body)).statusCode, `${method} ${url}`).toBe(status);
    }
    expect(
      await db().selectFrom('email_templates').select('id').where('id', '=', id).execute(),
    ).toHaveLength(1);
    expect(suite().catcher.messages()).toHaveLength(0);
  });

  it('admits staff and admins', async () => {
    expect((await call('staff', 'GET', '/api/emailtemplates')).statusCode).toBe(200);
    expect((await call('admin', 'GET', '/api/emailtemplates')).statusCode).toBe(200);
  });
});

describe('templates and versions', () => {
  it('creates, lists, reads, versions, activates and deletes, each with its event', async () => {
    const mark = await lastEventId(db());
    const id = await createTemplate({
      ...WELCOME,
      tenantId: suite().tenantId,
      partyEntityId: 'ent-1',
      productScope: 2,
    });
    const first = await addVersion(id);
    const second = await addVersion(id, {
      ...VERSION,
      subject: 'Second {{caseId}}',
      textContent: 'Text {{caseId}}',
    });
    expect([first.versionNumber, second.versionNumber]).toEqual([1, 2]);

    const template = {
      ...WELCOME,
      tenantId: suite().tenantId,
      partyEntityId: 'ent-1',
      productScope: 2,
    };
    expect((await activate(id, second.id, template)).statusCode).toBe(200);

    const list = (await call('staff', 'GET', '/api/emailtemplates')).json() as Record<
      string,
      unknown
    >[];
    expect(list.map((row) => row.templateKey)).toEqual(['tenant-user-invitation', 'welcome']);
    expect(list[1]).toMatchObject({
      id,
      tenantId: suite().tenantId,
      partyEntityId: 'ent-1',
      productType: 2,
      productScope: 2,
      activeVersionId: second.id,
      activeVersionNumber: 2,
    });

    const read = (await call('staff', 'GET', `/api/emailtemplates/${id}`)).json() as {
      versions: { versionNumber: number; textContent: string; subject: string }[];
    };
    expect(read.versions.map((version) => version.versionNumber)).toEqual([1, 2]);
    // Without text, the text is the HTML's: no tags, no script.
    expect(read.versions[0]!.textContent).toContain('Hello {{customer.name}}');
    expect(read.versions[0]!.textContent).not.toContain('<');
    expect(read.versions[0]!.textContent).not.toContain('alert');
    expect(read.versions[1]!.textContent).toBe('Text {{caseId}}');

    const deleted = await call('staff', 'DELETE', `/api/emailtemplates/${id}`);
    expect(deleted.statusCode).toBe(204);
    expect(
      await db()
        .selectFrom('email_template_versions')
        .where('email_template_id', '=', id)
        .selectAll()
        .execute(),
    ).toEqual([]);
    expect((await call('staff', 'GET', `/api/emailtemplates/${id}`)).statusCode).toBe(404);

    const events = await eventsAfter(db(), mark);
    expect(events.map((event) => event.eventName)).toEqual([
      'EmailTemplateCreated',
      'EmailTemplateVersionCreated',
      'EmailTemplateVersionCreated',
      'EmailTemplateVersionActivated',
      'EmailTemplateDeleted',
    ]);
    expect(events[0]).toMatchObject({ tenantId: suite().tenantId, entityId: 'ent-1' });
    expect(events[0]!.metadata).toMatchObject({ actor: 'staff@example.com', emailTemplateId: id });
  });

  it('numbers versions above the highest, also when created at once', async () => {
    const id = await createTemplate();
    const created = await Promise.all(
      Array.from({ length: 5 }, () =>
        call('staff', 'POST', `/api/emailtemplates/${id}/versions`, VERSION),
      ),
    );
    const numbers = created.map(
      (response) => (response.json() as { versionNumber: number }).versionNumber,
    );
    expect(numbers.sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps the key: a change is a 400 naming templateKey', async () => {
    const id = await createTemplate();
    const response = await call('staff', 'PUT', `/api/emailtemplates/${id}`, {
      ...WELCOME,
      templateKey: 'renamed',
      activeVersionId: null,
    });
    expectRefusal(response, 400, 'templateKey cannot be changed once the template exists');
    expect(response.json().errors).toEqual([{ path: 'templateKey', message: 'Cannot be changed' }]);
  });

  it('refuses a key taken in the same scope (409), and allows it in another', async () => {
    await createTemplate();
    const again = await call('staff', 'POST', '/api/emailtemplates', WELCOME);
    expectRefusal(
      again,
      409,
      'An email template with key welcome already exists for this tenant and entity.',
    );
    await createTemplate({ ...WELCOME, tenantId: suite().tenantId });
  });

  it('activates only a version of the template itself', async () => {
    const id = await createTemplate();
    const other = await createTemplate({ ...WELCOME, templateKey: 'other' });
    const foreign = await addVersion(other);
    const response = await activate(id, foreign.id);
    expectRefusal(response, 400, `Version ${foreign.id} is not a version of email template ${id}`);
    const own = await addVersion(id);
    expect((await activate(id, own.id)).statusCode).toBe(200);
    // Creating a version does not activate it.
    await addVersion(id);
    const read = (await call('staff', 'GET', `/api/emailtemplates/${id}`)).json() as {
      activeVersionId: number;
    };
    expect(read.activeVersionId).toBe(own.id);
  });

  it('answers 404 for unknown ids and 400 for ids that are not ids', async () => {
    expect((await call('staff', 'GET', '/api/emailtemplates/999999')).statusCode).toBe(404);
    expect((await call('staff', 'DELETE', '/api/emailtemplates/999999')).statusCode).toBe(404);
    expect(
      (await call('staff', 'POST', '/api/emailtemplates/999999/versions', VERSION)).statusCode,
    ).toBe(404);
    expect(
      (
        await call('staff', 'PUT', '/api/emailtemplates/999999', {
          ...WELCOME,
          activeVersionId: null,
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('staff', 'GET', '/api/emailtemplates/abc')).statusCode).toBe(400);
    expect((await call('staff', 'GET', '/api/emailtemplates/0x1')).statusCode).toBe(400);
  });
});

describe('bad input', () => {
  it.each([
    ['malformed JSON', '{"templateKey": ', undefined],
    ['a missing key', { ...WELCOME, templateKey: undefined }, 'templateKey is required'],
    ['a blank key', { ...WELCOME, templateKey: '  ' }, 'templateKey is required'],
    ['a key with spaces', { ...WELCOME, templateKey: 'a b' }, 'templateKey may contain only'],
    [
      'an over-long key',
      { ...WELCOME, templateKey: 'k'.repeat(101) },
      'templateKey must be 100 characters or less',
    ],
    [
      'a NUL',
      { ...WELCOME, templateKey: 'a\u0000b' },
      'templateKey must not contain the NUL character',
    ],
    ['a wrong type', { ...WELCOME, productType: '2' }, 'productType must be a number'],
    ['an unknown product type', { ...WELCOME, productType: 9 }, 'productType must be one of'],
    ['an unknown scope', { ...WELCOME, productScope: -1 }, 'productScope must be one of'],
    ['an unknown tenant', { ...WELCOME, tenantId: 987654 }, 'Tenant 987654 does not exist'],
    ['an unknown entity', { ...WELCOME, partyEntityId: 'nope' }, 'Entity nope does not exist'],
  ])('refuses %s with a 400 naming the field', async (_name, body, message) => {
    const response = await call('staff', 'POST', '/api/emailtemplates', body);
    expect(response.statusCode, response.body).toBe(400);
    if (message) expect(response.json().message).toContain(message);
    expect(
      await db()
        .selectFrom('email_templates')
        .select('id')
        .where('template_key', '<>', 'tenant-user-invitation')
        .execute(),
    ).toEqual([]);
  });

  it.each([
    ['no from address', { ...VERSION, fromAddress: '' }, 'fromAddress is required'],
    ['no subject', { ...VERSION, subject: undefined }, 'subject is required'],
    [
      'an over-long body',
      { ...VERSION, body: 'x'.repeat(1_000_001) },
      'body must be 1000000 characters or less',
    ],
    [
      'a NUL in the body',
      { ...VERSION, body: 'a\u0000' },
      'body must not contain the NUL character',
    ],
    [
      'a broken placeholder',
      { ...VERSION, body: '<p>{{#each items}}</p>' },
      'body is not a valid template',
    ],
    [
      'a schema that is not JSON',
      { ...VERSION, jsonSchema: '{nope' },
      'jsonSchema is not valid JSON',
    ],
    [
      'a schema that is not a schema',
      { ...VERSION, jsonSchema: '{"type": 12}' },
      'jsonSchema is not a valid JSON Schema',
    ],
    [
      'a schema that is a list',
      { ...VERSION, jsonSchema: '[]' },
      'jsonSchema must be a JSON object',
    ],
  ])('refuses a version with %s', async (_name, body, message) => {
    const id = await createTemplate();
    const response = await call('staff', 'POST', `/api/emailtemplates/${id}/versions`, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain(message);
    expect(
      await db()
        .selectFrom('email_template_versions')
        .where('email_template_id', '=', id)
        .selectAll()
        .execute(),
    ).toEqual([]);
  });
});

describe('rendering', () => {
  it('previews with sample data from the schema, escaped and sanitised', async () => {
    const response = await call('staff', 'POST', '/api/emailtemplates/preview', VERSION);
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json() as {
      subject: string;
      html: string;
      text: string;
      sampleData: { items: unknown[] };
    };
    // Subject and text are not HTML: the value as it is. The HTML escapes it.
    expect(preview.subject).toBe('Case KYC-42 for Jane <b>Doe</b> & Co');
    expect(preview.html).toContain('Hello Jane &lt;b&gt;Doe&lt;/b&gt; &amp; Co');
    expect(preview.html).not.toContain('<script');
    expect(preview.html).not.toContain('tracker.example');
    expect(preview.html).toContain('<td>Sample label</td><td>passed</td>');
    expect(preview.sampleData.items).toHaveLength(2);
    expect(preview.text).toContain('Hello Jane <b>Doe</b> & Co');
  });

  it('keeps placeholders named like prototype members as plain sample data', async () => {
    // The schema is a document the client wrote: its property names are data, not keys to refuse.
    const jsonSchema = JSON.stringify({
      type: 'object',
      properties: {
        // Computed: a literal `__proto__:` would set the literal's prototype instead.
        ['__proto__']: { type: 'object', properties: { polluted: { type: 'string' } } },
        constructor: { type: 'string' },
        toString: { type: 'string' },
      },
    });
    const response = await call('staff', 'POST', '/api/emailtemplates/preview', {
      ...VERSION,
      subject: 'For {{constructor}} and {{toString}}',
      jsonSchema,
    });
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json() as { subject: string; sampleData: object };
    expect(preview.subject).toBe('For Sample constructor and Sample toString');
    expect(Object.keys(preview.sampleData).sort()).toEqual([
      '__proto__',
      'constructor',
      'toString',
    ]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('refuses sample data that breaks the schema, naming jsonSchema', async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[0-9]+$' } },
    });
    const response = await call('staff', 'POST', '/api/emailtemplates/preview', {
      ...VERSION,
      jsonSchema: schema,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].path).toBe('jsonSchema');
    expect(response.json().message).toContain('/code must match pattern');
  });
});

describe('POST /api/emailtemplates/testsend', () => {
  it('sends the active version, rendered, with both parts, to the catcher', async () => {
    const id = await createTemplate();
    const version = await addVersion(id);
    await activate(id, version.id);
    const response = await call('staff', 'POST', '/api/emailtemplates/testsend', {
      ToAddress: 'qa@console.example',
      TemplateKey: 'welcome',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      message: 'Test email of welcome version 1 sent to qa@console.example',
      versionNumber: 1,
    });
    const [mail] = suite().catcher.messages();
    expect(mail).toMatchObject({
      to: ['qa@console.example'],
      subject: 'Case KYC-42 for Jane <b>Doe</b> & Co',
    });
    expect(mail!.from).toContain('no-reply@console.example');
    expect(mail!.html).toContain('Jane &lt;b&gt;Doe&lt;/b&gt; &amp; Co');
    expect(mail!.text).toContain('Your case KYC-42 was reviewed.');
  });

  it('sends the selected saved version rather than the active one (VersionId)', async () => {
    const id = await createTemplate();
    const first = await addVersion(id, {
      ...VERSION,
      subject: 'First {{caseId}}',
      body: '<p>First body for {{caseId}}</p>',
    });
    const second = await addVersion(id, { ...VERSION, subject: 'Second {{caseId}}' });
    await activate(id, second.id);
    const response = await call('staff', 'POST', '/api/emailtemplates/testsend', {
      ToAddress: 'qa@console.example',
      TemplateKey: 'welcome',
      VersionId: first.id,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      message: 'Test email of welcome version 1 sent to qa@console.example',
      versionNumber: 1,
    });
    const [mail] = suite().catcher.messages();
    expect(mail?.subject).toBe('First KYC-42');
    expect(mail?.html).toContain('First body for KYC-42');
    expect(mail?.text).toContain('First body for KYC-42');
  });

  it('refuses a version of another template, or an unknown one (404)', async () => {
    const id = await createTemplate();
    await addVersion(id);
    const other = await createTemplate({ ...WELCOME, templateKey: 'other' });
    const foreign = await addVersion(other);
    const response = await call('staff', 'POST', '/api/emailtemplates/testsend', {
      ToAddress: 'qa@console.example',
      TemplateKey: 'welcome',
      VersionId: foreign.id,
    });
    expectRefusal(response, 404, `Version ${foreign.id} of email template welcome not found.`);
    const unknown = await call('staff', 'POST', '/api/emailtemplates/testsend', {
      ToAddress: 'qa@console.example',
      TemplateKey: 'welcome',
      VersionId: 2_147_483_647,
    });
    expectRefusal(unknown, 404, 'Version 2147483647 of email template welcome not found.');
    const bad = await call('staff', 'POST', '/api/emailtemplates/testsend', {
      ToAddress: 'qa@console.example',
      TemplateKey: 'welcome',
      VersionId: 0,
    });
    expect(bad.statusCode).toBe(400);
    expect(suite().catcher.messages()).toEqual([]);
  });

  it('refuses a bad recipient, an unknown key and a template without active version', async () => {
    const bad = await call('staff', 'POST', '/api/emailtemplates/testsend', {
      ToAddress: 'not-an-address',
      TemplateKey: 'welcome',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('ToAddress must be an email address');
    const unknown = await call('staff', 'POST', '/api/emailtemplates/testsend', {
      ToAddress: 'a@b.example',
      TemplateKey: 'nope',
    });
    expectRefusal(unknown, 404, 'Email template nope not found.');
    await createTemplate();
    const inactive = await call('staff', 'POST', '/api/emailtemplates/testsend', {
      ToAddress: 'a@b.example',
      TemplateKey: 'welcome',
    });
    expectRefusal(
      inactive,
      409,
      'Email template welcome has no active version. Save one as active first.',
    );
  });

  it('answers a clear 502 while SMTP is down, and sends again once it is back', async () => {
    const { catcher, port } = suite();
    await catcher.stop();
    try {
      const response = await call('staff', 'POST', '/api/emailtemplates/testsend', {
        ToAddress: 'a@b.example',
        TemplateKey: 'tenant-user-invitation',
      });
      expectRefusal(
        response,
        502,
        `The test email could not be sent: SMTP connection refused (127.0.0.1:${port})`,
      );
    } finally {
      await catcher.start(port);
    }
    const again = await call('staff', 'POST', '/api/emailtemplates/testsend', {
      ToAddress: 'a@b.example',
      TemplateKey: 'tenant-user-invitation',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(catcher.messages()[0]?.subject).toBe('You are invited to the Acme Corporation portal');
  });
});
