import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailTestApp } from '../../test/mail-test-app.ts';
import { useSuiteFixture } from '../../test/suite-fixture.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { seedDemoData } from '../db/seed/demo.ts';
import { readMailCounts } from './mail-counts.ts';
import { createNotificationsWorker, describeSmtpError } from './notifications.ts';
import { recordEvent } from './outbox.ts';
import { SmtpCatcher } from './smtp-catcher.ts';
import { eventState, eventually, failedBy, finishedBy } from './test-support.ts';
import type { RecordedEvent } from './worker.ts';

async function inviteTenantUser(
  testApp: TestApp,
  email: string,
  companyName?: string,
  tenantName = 'Acme Corporation',
) {
  const acme = await testApp.database.db
    .selectFrom('tenants')
    .select('id')
    .where('company_name', '=', tenantName)
    .executeTakeFirstOrThrow();
  return testApp.database.db.transaction().execute((trx) =>
    recordEvent(trx, {
      eventName: 'TenantUserCreated',
      tenantId: acme.id,
      metadata: {
        actor: 'admin@example.com',
        action: 'create',
        email,
        tenantId: acme.id,
        ...(companyName ? { companyName } : {}),
      },
    }),
  );
}

describe('invitations of new tenant users over SMTP', () => {
  const catcher = new SmtpCatcher();
  let port = 0;
  let testApp: TestApp;
  let staffToken = '';

  beforeAll(async () => {
    port = await catcher.start(0);
    testApp = await createTestApp({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      smtpFrom: 'KYC console <no-reply@console.example>',
      eventPollIntervalMs: 50,
    });
    await seedDemoData(testApp.database.db);
    staffToken = await testApp.tokenFor('staff@example.com');
  });
  afterAll(async () => {
    await testApp.close();
    await catcher.stop();
  });

  const mailTo = (address: string) =>
    catcher.messages().filter((mail) => mail.to.includes(address));

  it('mails the invitation, and both workers finish the event', async () => {
    const mailsBefore = await readMailCounts(testApp.database.db);
    const { id } = await inviteTenantUser(testApp, 'new.user@acme.example', 'Acme Corporation');
    const [mail] = await catcher.waitFor((messages) =>
      messages.some((message) => message.to.includes('new.user@acme.example')),
    );
    // The seeded 'tenant-user-invitation' template's sender (migration 13).
    expect(mail).toMatchObject({
      from: 'no-reply@example.com',
      to: ['new.user@acme.example'],
      subject: 'You are invited to the Acme Corporation portal',
    });
    expect(mail?.text).toContain(`${testApp.config.publicUrl}/login`);
    expect(mail?.text).toContain('Sign in with this address (new.user@acme.example)');
    expect(mail?.html).toContain('<strong>Acme Corporation</strong>');
    const state = await eventually(async () => {
      const current = await eventState(testApp.database.db, id);
      return current.isProcessed && current;
    });
    expect(state.records.map((record) => [record.workerName, record.processed])).toEqual([
      ['audit-trail', true],
      ['notifications', true],
    ]);
    // Counted for the dashboard overview's last 24 hours.
    expect(await readMailCounts(testApp.database.db)).toEqual({
      ...mailsBefore,
      sent: mailsBefore.sent + 1,
    });
  });

  it("renders the tenant's own invitation template, escaped, else the built-in one", async () => {
    const { db } = testApp.database;
    const acme = await db
      .selectFrom('tenants')
      .select('id')
      .where('company_name', '=', 'Acme Corporation')
      .executeTakeFirstOrThrow();
    const stamp = { created_by: 'test', updated_by: 'test', updated_at: new Date() };
    const own = await db
      .insertInto('email_templates')
      .values({
        template_key: 'tenant-user-invitation',
        tenant_id: acme.id,
        product_type: 0,
        product_scope: 1,
        ...stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const version = await db
      .insertInto('email_template_versions')
      .values({
        email_template_id: own.id,
        version_number: 1,
        from_address: 'Acme <hello@acme.example>',
        subject: 'Welcome {{email}} to {{companyName}}',
        body: '<p>{{companyName}} says hi</p>',
        text_content: 'Hi from {{companyName}}: {{signInUrl}}',
        json_schema: null,
        ...stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('email_templates')
      .set({ active_version_id: version.id })
      .where('id', '=', own.id)
      .execute();
    try {
      await inviteTenantUser(testApp, 'templated@acme.example', 'Acme & <Sons>');
      const mail = (
        await catcher.waitFor((messages) =>
          messages.some((message) => message.to.includes('templated@acme.example')),
        )
      ).find((message) => message.to.includes('templated@acme.example'));
      expect(mail).toMatchObject({
        from: 'hello@acme.example',
        subject: 'Welcome templated@acme.example to Acme & <Sons>',
      });
      expect(mail?.html).toContain('<p>Acme &amp; &lt;Sons&gt; says hi</p>');
      expect(mail?.text).toContain(`Hi from Acme & <Sons>: ${testApp.config.publicUrl}/login`);
      // Another tenant's user gets the instance-level template, not Acme's own.
      await inviteTenantUser(testApp, 'globex@globex.example', undefined, 'Globex Limited');
      const globex = (
        await catcher.waitFor((messages) =>
          messages.some((message) => message.to.includes('globex@globex.example')),
        )
      ).find((message) => message.to.includes('globex@globex.example'));
      expect(globex?.subject).toBe('You are invited to the Globex Limited portal');
    } finally {
      await db.deleteFrom('email_templates').where('id', '=', own.id).execute();
    }
    // Without any template, the built-in invitation from SMTP_FROM.
    await db
      .deleteFrom('email_templates')
      .where('template_key', '=', 'tenant-user-invitation')
      .execute();
    await inviteTenantUser(testApp, 'builtin@acme.example', 'Acme Corporation');
    const builtin = (
      await catcher.waitFor((messages) =>
        messages.some((message) => message.to.includes('builtin@acme.example')),
      )
    ).find((message) => message.to.includes('builtin@acme.example'));
    expect(builtin).toMatchObject({
      from: 'no-reply@console.example',
      subject: 'You are invited to the Acme Corporation portal',
    });
  });

  it('looks the company name up when the event does not carry it', async () => {
    await inviteTenantUser(testApp, 'no.company@acme.example');
    const [mail] = await catcher.waitFor((messages) =>
      messages.some((message) => message.to.includes('no.company@acme.example')),
    );
    expect(mail?.subject).toBe('You are invited to the Acme Corporation portal');
  });

  it('records a clear failure while the mail server is down; a reset then sends it once', async () => {
    const mailsBefore = await readMailCounts(testApp.database.db);
    await catcher.stop();
    const { id } = await inviteTenantUser(testApp, 'while.down@acme.example', 'Acme Corporation');
    // The two workers run independently: wait for both.
    const failed = await eventually(async () => {
      const current = await eventState(testApp.database.db, id);
      return current.hasError && current.records.every((r) => r.processed || r.hasError) && current;
    });
    expect(failed.records).toEqual([
      finishedBy('audit-trail'),
      failedBy('notifications', `SMTP connection refused (127.0.0.1:${port})`),
    ]);
    expect((await readMailCounts(testApp.database.db)).failed).toBeGreaterThan(mailsBefore.failed);

    // The listing shows it the way the events screen needs it.
    const listed = await testApp.app.inject({
      method: 'GET',
      url: '/api/events?erroredOnly=true&eventName=tenantuser',
      headers: { authorization: `Bearer ${staffToken}` },
    });
    expect(listed.json().data[0]).toMatchObject({
      id,
      hasError: true,
      processedEvents: [
        { workerName: 'audit-trail', hasError: false },
        {
          workerName: 'notifications',
          hasError: true,
          errorMessage: `SMTP connection refused (127.0.0.1:${port})`,
        },
      ],
    });

    await catcher.start(port);
    const reset = await testApp.app.inject({
      method: 'POST',
      url: `/api/events/${id}/reset`,
      headers: { authorization: `Bearer ${staffToken}`, 'content-type': 'application/json' },
      payload: { workerName: 'notifications' },
    });
    expect(reset.statusCode).toBe(200);
    await catcher.waitFor(() => mailTo('while.down@acme.example').length > 0);
    const done = await eventually(async () => {
      const current = await eventState(testApp.database.db, id);
      return current.isProcessed && current;
    });
    expect(done.hasError).toBe(false);
    expect(done.records[1]).toMatchObject({ workerName: 'notifications', attempts: 1 });
    // Exactly one, also a while later; the audit trail was not repeated.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailTo('while.down@acme.example')).toHaveLength(1);
    const audits = await testApp.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('event_id', '=', id)
      .execute();
    expect(audits).toHaveLength(1);
  });
});

describe('the notifications worker', () => {
  const event = (metadata: Record<string, unknown>): RecordedEvent => ({
    id: 9,
    eventName: 'TenantUserCreated',
    tenantId: null,
    entityId: null,
    uniqueId: 'u',
    createdAt: new Date(),
    metadata,
  });
  const unusedDb = {} as never;

  it('fails clearly without SMTP_URL, or without an address to write to', async () => {
    const worker = createNotificationsWorker({
      smtpUrl: undefined,
      from: 'a@b.example',
      publicUrl: 'http://localhost:3000',
      timeoutMs: 1000,
    });
    await expect(worker.handle(event({ email: 'x@y.example' }), unusedDb)).rejects.toThrow(
      'SMTP is not configured: set SMTP_URL (docs/configuration.md)',
    );
    const configured = createNotificationsWorker({
      smtpUrl: 'smtp://127.0.0.1:9',
      from: 'a@b.example',
      publicUrl: 'http://localhost:3000',
      timeoutMs: 1000,
    });
    await expect(
      configured.handle(event({ email: 'not an address', companyName: 'X' }), unusedDb),
    ).rejects.toThrow('Event 9 (TenantUserCreated) has no valid email in its metadata');
    // Other events are none of its business.
    await expect(
      configured.handle({ ...event({}), eventName: 'TenantCreated' }, unusedDb),
    ).resolves.toBeUndefined();
    await configured.close?.();
  });

  it('describes SMTP failures for an operator, without credentials', () => {
    const url = 'smtp://user:secret@mail.example.com:2525';
    expect(
      describeSmtpError(
        Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:2525'), { code: 'ESOCKET' }),
        url,
        10_000,
      ),
    ).toBe('SMTP connection refused (mail.example.com:2525)');
    expect(
      describeSmtpError(
        Object.assign(new Error('getaddrinfo ENOTFOUND mail.example.com'), { code: 'EDNS' }),
        url,
        10_000,
      ),
    ).toBe('SMTP server not found (mail.example.com:2525)');
    expect(
      describeSmtpError(
        Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT', command: 'CONN' }),
        'smtp://mail.internal',
        30_000,
      ),
    ).toBe('SMTP greeting not received within 30000 ms (mail.internal:587)');
    expect(
      describeSmtpError(
        Object.assign(new Error("Can't send mail - all recipients were rejected"), {
          code: 'EENVELOPE',
          responseCode: 550,
          response:
            '550 5.1.1 <x@y.example>: Recipient address rejected: User unknown in virtual mailbox table',
        }),
        url,
        10_000,
      ),
    ).toBe(
      'SMTP 550 5.1.1 <x@y.example>: Recipient address rejected: User unknown in virtual mailbox table',
    );
    expect(describeSmtpError(new Error('odd'), 'smtps://mail.example.com', 10_000)).toBe(
      'SMTP error (mail.example.com:465): odd',
    );
    for (const text of [
      describeSmtpError(new Error('connect ECONNREFUSED'), url, 1),
      describeSmtpError(new Error('odd'), url, 1),
    ]) {
      expect(text).not.toContain('secret');
    }
  });
});

describe('GET /api/dev/mail (the development SMTP catcher)', () => {
  const mailApp = useSuiteFixture(createMailTestApp);
  const call = (method: 'GET' | 'DELETE', email?: string) =>
    mailApp().call(method, '/api/dev/mail?to=Caught@Acme.example', email);

  it('shows staff the caught mail, and refuses everyone else', async () => {
    expect(mailApp().testApp.app.eventServices.catcher?.isRunning).toBe(true);
    await inviteTenantUser(mailApp().testApp, 'caught@acme.example', 'Acme Corporation');
    const messages = await eventually(async () => {
      const response = await call('GET', 'staff@example.com');
      expect(response.statusCode).toBe(200);
      const body = response.json() as { messages: { subject: string; to: string[] }[] };
      return body.messages.length > 0 && body.messages;
    });
    expect(messages[0]).toMatchObject({
      to: ['caught@acme.example'],
      subject: 'You are invited to the Acme Corporation portal',
    });
    expect((await call('GET')).statusCode).toBe(401);
    expect((await call('GET', 'portal@acme.example')).statusCode).toBe(403);
    expect((await call('DELETE', 'portal@acme.example')).statusCode).toBe(403);
    expect((await call('DELETE', 'staff@example.com')).statusCode).toBe(204);
    expect((await call('GET', 'admin@example.com')).json()).toEqual({ messages: [] });
  });

  it('does not exist when no catcher runs', async () => {
    const plain = await createTestApp();
    try {
      expect(plain.app.eventServices.catcher).toBeUndefined();
      const response = await plain.app.inject({
        method: 'GET',
        url: '/api/dev/mail',
        headers: { authorization: `Bearer ${await plain.tokenFor('staff@example.com')}` },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
