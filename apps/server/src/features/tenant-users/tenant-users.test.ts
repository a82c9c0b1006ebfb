import { INVALID_EMAIL_MESSAGE, REQUIRED_FIELDS_MESSAGE } from '@console/contracts';
import type { TenantUser } from '@console/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpCatcher } from '../../outbox/smtp-catcher.ts';
import { eventState, eventually } from '../../outbox/test-support.ts';
import { HTML_INJECTION } from '../../../test/callers.ts';
import { expectFieldError, expectRefusal } from '../../../test/expectations.ts';
import { CALLER_EMAILS, usePortalTestApp } from '../../../test/portal-test-app.ts';
import { eventsAfter, failRecordingOf, lastEventId } from '../../../test/recorded-events.ts';

const portal = usePortalTestApp();
const db = () => portal.testApp.database.db;

const create = (body: unknown) => portal.call('staff', 'POST', '/api/tenantusers', body);

async function storedTenantUsers() {
  return db().selectFrom('tenant_users').selectAll().orderBy('id').execute();
}

describe('GET /api/tenantusers', () => {
  it("lists every tenant user with its tenant's company name, by id", async () => {
    const response = await portal.call('staff', 'GET', '/api/tenantusers');
    expect(response.statusCode).toBe(200);
    const users = response.json() as TenantUser[];
    expect(users).toEqual(
      expect.arrayContaining([
        {
          id: expect.any(Number),
          email: 'portal@acme.example',
          tenantId: portal.acmeId,
          tenantCompanyName: 'Acme Corporation',
        },
        {
          id: expect.any(Number),
          email: 'portal@globex.example',
          tenantId: portal.globexId,
          tenantCompanyName: 'Globex Limited',
        },
      ]),
    );
    const ids = users.map((user) => user.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('matches its path case-insensitively, also under the /api fallback base', async () => {
    for (const url of ['/API/TenantUsers', '/api/api/tenantusers']) {
      expect((await portal.call('admin', 'GET', url)).statusCode).toBe(200);
    }
  });
});

describe('POST /api/tenantusers', () => {
  it('registers an email, trimmed and lower-cased, stamped with the caller (201)', async () => {
    const response = await create({ email: '  New.Person@Acme.Example ', tenantId: portal.acmeId });
    expect(response.statusCode).toBe(201);
    const created = response.json() as TenantUser;
    expect(created).toEqual({
      id: expect.any(Number),
      email: 'new.person@acme.example',
      tenantId: portal.acmeId,
      tenantCompanyName: 'Acme Corporation',
    });
    const row = (await storedTenantUsers()).find((user) => user.id === created.id);
    expect(row).toMatchObject({ created_by: CALLER_EMAILS.staff, updated_by: CALLER_EMAILS.staff });
    const listed = (await portal.call('staff', 'GET', '/api/tenantusers')).json();
    expect(listed).toContainEqual(created);
  });

  it('answers 409 for an email already registered, whatever its case, and writes nothing', async () => {
    const before = await storedTenantUsers();
    const response = await create({ email: 'PORTAL@acme.example', tenantId: portal.globexId });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: 'The email portal@acme.example is already registered as a tenant user.',
    });
    expect(await storedTenantUsers()).toEqual(before);
  });

  it('answers 409 against a row written by hand with capitals', async () => {
    await db()
      .insertInto('tenant_users')
      .values({
        email: 'Mixed.Case@Hand.Example',
        tenant_id: portal.globexId,
        created_by: 'test',
        updated_by: 'test',
        updated_at: new Date(),
      })
      .execute();
    const response = await create({ email: 'mixed.case@hand.example', tenantId: portal.acmeId });
    expect(response.statusCode).toBe(409);
  });

  it('answers 400 for a tenant that does not exist (the body names it, not the URL)', async () => {
    const response = await create({ email: 'nobody@ghost.example', tenantId: 999_999 });
    expectFieldError(response, 'tenantId', 'Tenant 999999 does not exist.');
  });

  it.each([
    ['no email', { tenantId: 1 }, REQUIRED_FIELDS_MESSAGE],
    ['a blank email', { email: '   ', tenantId: 1 }, REQUIRED_FIELDS_MESSAGE],
    ['no tenant', { email: 'a@b.example' }, REQUIRED_FIELDS_MESSAGE],
    ['a null tenant', { email: 'a@b.example', tenantId: null }, REQUIRED_FIELDS_MESSAGE],
    ['an email without @', { email: 'not-an-email', tenantId: 1 }, INVALID_EMAIL_MESSAGE],
    ['an email without domain', { email: 'someone@', tenantId: 1 }, INVALID_EMAIL_MESSAGE],
    ['an email with spaces', { email: 'some one@x.example', tenantId: 1 }, INVALID_EMAIL_MESSAGE],
    ['HTML as the email', { email: HTML_INJECTION, tenantId: 1 }, INVALID_EMAIL_MESSAGE],
    [
      'SQL as the email',
      { email: "x@y.example'; drop table tenant_users; --", tenantId: 1 },
      INVALID_EMAIL_MESSAGE,
    ],
    [
      'an email of 255 characters',
      { email: `${'a'.repeat(64)}@${'b'.repeat(182)}.example`, tenantId: 1 },
      INVALID_EMAIL_MESSAGE,
    ],
    ['an email that is a number', { email: 42, tenantId: 1 }, 'email must be a string'],
    ['a tenant id as text', { email: 'a@b.example', tenantId: '1' }, 'tenantId must be a number'],
    [
      'a fractional tenant id',
      { email: 'a@b.example', tenantId: 1.5 },
      'tenantId must be a whole number',
    ],
    [
      'a tenant id out of range',
      { email: 'a@b.example', tenantId: 2 ** 31 },
      'tenantId must be between 1 and 2147483647',
    ],
  ])('answers 400 for %s, and writes nothing', async (_case, body, message) => {
    const before = await storedTenantUsers();
    const response = await create(body);
    expectRefusal(response, 400, message);
    expect(await storedTenantUsers()).toEqual(before);
  });

  it.each([
    ['malformed JSON', '{"email": '],
    ['an array', '[{"email": "a@b.example", "tenantId": 1}]'],
    ['a string', '"a@b.example"'],
  ])('answers 400 for a body that is %s', async (_case, body) => {
    const response = await portal.call('staff', 'POST', '/api/tenantusers', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('message');
  });
});

describe('DELETE /api/tenantusers/{id}', () => {
  it('deletes a tenant user (204), then answers 404', async () => {
    const created = (
      await create({ email: 'temp@globex.example', tenantId: portal.globexId })
    ).json();
    const response = await portal.call('staff', 'DELETE', `/api/tenantusers/${created.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await storedTenantUsers()).map((user) => user.id)).not.toContain(created.id);

    const again = await portal.call('staff', 'DELETE', `/api/tenantusers/${created.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: `Tenant user ${created.id} not found.` });
  });

  it.each(['abc', '0', '1.5', '4294967296', '1 or 1=1'])(
    'answers 400 for the id %s',
    async (id) => {
      const before = await storedTenantUsers();
      const response = await portal.call(
        'staff',
        'DELETE',
        `/api/tenantusers/${encodeURIComponent(id)}`,
      );
      expect(response.statusCode).toBe(400);
      expect(await storedTenantUsers()).toEqual(before);
    },
  );

  it('ends the access of the removed person at the next token', async () => {
    const email = 'leaver@acme.example';
    const created = (await create({ email, tenantId: portal.acmeId })).json() as TenantUser;

    const before = await portal.testApp.tokenFor(email);
    const entities = await portal.testApp.app.inject({
      method: 'GET',
      url: '/api/Entity?limit=5',
      headers: { authorization: `Bearer ${before}` },
    });
    expect(entities.statusCode).toBe(200);
    expect(
      entities.json().data.every((row: { tenantId: number }) => row.tenantId === portal.acmeId),
    ).toBe(true);

    expect(
      (await portal.call('staff', 'DELETE', `/api/tenantusers/${created.id}`)).statusCode,
    ).toBe(204);

    // The next token (what /auth/session mints) carries no role any more.
    const after = await portal.testApp.tokenFor(email);
    const payload = JSON.parse(Buffer.from(after.split('.')[1] ?? '', 'base64url').toString());
    expect(payload.roles).toEqual([]);
    expect(payload).not.toHaveProperty('tid');
    for (const url of ['/api/Entity', '/api/EntityUser']) {
      const refused = await portal.testApp.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${after}` },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.body).not.toContain('Acme');
    }
  });
});

describe('domain events of tenant user writes', () => {
  it('records TenantUserCreated for the tenant, with what the invitation needs', async () => {
    const since = await lastEventId(db());
    const response = await create({ email: ' Evented@Acme.Example ', tenantId: portal.acmeId });
    expect(response.statusCode).toBe(201);
    const created = response.json() as TenantUser;
    expect(await eventsAfter(db(), since)).toEqual([
      {
        id: expect.any(Number),
        eventName: 'TenantUserCreated',
        tenantId: portal.acmeId,
        entityId: null,
        metadata: {
          actor: CALLER_EMAILS.staff,
          action: 'create',
          tenantUserId: created.id,
          email: 'evented@acme.example',
          tenantId: portal.acmeId,
          companyName: 'Acme Corporation',
          target: { type: 'TenantUser', id: created.id, name: 'evented@acme.example' },
          after: created,
        },
      },
    ]);
  });

  it('records TenantUserDeleted for the tenant, with the user as it was', async () => {
    const before = (
      await create({ email: 'evented.leaver@globex.example', tenantId: portal.globexId })
    ).json() as TenantUser;
    const since = await lastEventId(db());
    const response = await portal.call('admin', 'DELETE', `/api/tenantusers/${before.id}`);
    expect(response.statusCode).toBe(204);
    expect(await eventsAfter(db(), since)).toEqual([
      {
        id: expect.any(Number),
        eventName: 'TenantUserDeleted',
        tenantId: portal.globexId,
        entityId: null,
        metadata: {
          actor: CALLER_EMAILS.admin,
          action: 'delete',
          tenantUserId: before.id,
          email: 'evented.leaver@globex.example',
          tenantId: portal.globexId,
          target: { type: 'TenantUser', id: before.id, name: 'evented.leaver@globex.example' },
          before,
        },
      },
    ]);
  });

  it('records nothing for a write that fails (409, 400, 404)', async () => {
    const since = await lastEventId(db());
    expect((await create({ email: CALLER_EMAILS.acme, tenantId: portal.acmeId })).statusCode).toBe(
      409,
    );
    expect((await create({ email: 'nobody@nowhere.example', tenantId: 999999 })).statusCode).toBe(
      400,
    );
    expect((await portal.call('staff', 'DELETE', '/api/tenantusers/999999')).statusCode).toBe(404);
    expect(await eventsAfter(db(), since)).toEqual([]);
  });

  it('records the event in the transaction of the write: no event, no write', async () => {
    const kept = (
      await create({ email: 'evented.kept@acme.example', tenantId: portal.acmeId })
    ).json() as TenantUser;
    const since = await lastEventId(db());
    const stored = await storedTenantUsers();

    const restoreCreate = await failRecordingOf(db(), 'TenantUserCreated');
    try {
      const response = await create({ email: 'never@acme.example', tenantId: portal.acmeId });
      expect(response.statusCode).toBe(500);
    } finally {
      await restoreCreate();
    }
    const restoreDelete = await failRecordingOf(db(), 'TenantUserDeleted');
    try {
      const response = await portal.call('staff', 'DELETE', `/api/tenantusers/${kept.id}`);
      expect(response.statusCode).toBe(500);
    } finally {
      await restoreDelete();
    }
    expect(await storedTenantUsers()).toEqual(stored);
    expect(await eventsAfter(db(), since)).toEqual([]);
  });
});

describe('the invitation of a new tenant user', () => {
  const catcher = new SmtpCatcher();
  // Hooks run in order (and after-hooks in reverse): the catcher listens before the app starts.
  beforeAll(async () => {
    await catcher.start(0);
  });
  afterAll(async () => {
    await catcher.stop();
  });
  const mailing = usePortalTestApp(() => ({
    smtpUrl: `smtp://127.0.0.1:${catcher.port}`,
    smtpFrom: 'KYC console <no-reply@console.example>',
    eventPollIntervalMs: 50,
  }));

  it('is mailed by the notifications worker, and both workers finish the event', async () => {
    const mailingDb = mailing.testApp.database.db;
    const since = await lastEventId(mailingDb);
    const response = await mailing.call('staff', 'POST', '/api/tenantusers', {
      email: 'Invited@Globex.Example',
      tenantId: mailing.globexId,
    });
    expect(response.statusCode).toBe(201);

    const messages = await catcher.waitFor((caught) =>
      caught.some((mail) => mail.to.includes('invited@globex.example')),
    );
    const invitations = messages.filter((mail) => mail.to.includes('invited@globex.example'));
    expect(invitations).toEqual([
      expect.objectContaining({
        // The sender of the seeded 'tenant-user-invitation' template (docs/email-templates.md).
        from: 'no-reply@example.com',
        to: ['invited@globex.example'],
        subject: 'You are invited to the Globex Limited portal',
      }),
    ]);
    expect(invitations[0]?.text).toContain(`${mailing.testApp.config.publicUrl}/login`);

    const [event] = await eventsAfter(mailingDb, since);
    if (!event) throw new Error('TenantUserCreated was not recorded');
    const state = await eventually(async () => {
      const current = await eventState(mailingDb, event.id);
      return current.isProcessed && current;
    });
    expect(state).toMatchObject({ eventName: 'TenantUserCreated', hasError: false });
    expect(state.records.map((record) => [record.workerName, record.processed])).toEqual([
      ['audit-trail', true],
      ['notifications', true],
    ]);
  });
});
