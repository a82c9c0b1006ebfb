import { describe, expect, it } from 'vitest';
import { createMailTestApp } from '../../test/mail-test-app.ts';
import { useSuiteFixture } from '../../test/suite-fixture.ts';
import { recordEvent } from './outbox.ts';
import { eventState, eventually } from './test-support.ts';

describe('POST /api/dev/mail/catcher/stop|start (the development SMTP catcher)', () => {
  const mailApp = useSuiteFixture(createMailTestApp);
  const testApp = () => mailApp().testApp;
  const db = () => testApp().database.db;
  const call = (method: 'GET' | 'POST', url: string, email?: string) =>
    mailApp().call(method, url, email);

  it('refuses everyone but staff', async () => {
    for (const action of ['stop', 'start']) {
      const url = `/api/dev/mail/catcher/${action}`;
      expect((await call('POST', url)).statusCode).toBe(401);
      expect((await call('POST', url, 'portal@acme.example')).statusCode).toBe(403);
    }
    expect(testApp().app.eventServices.catcher?.isRunning).toBe(true);
  });

  it('stops the catcher so that an invitation fails, and starts it again for the reset', async () => {
    const stopped = await call('POST', '/api/dev/mail/catcher/stop', 'staff@example.com');
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toEqual({ running: false, port: null });
    // Stopping twice is no error.
    expect((await call('POST', '/api/dev/mail/catcher/stop', 'staff@example.com')).json()).toEqual({
      running: false,
      port: null,
    });

    const acme = await db()
      .selectFrom('tenants')
      .select('id')
      .where('company_name', '=', 'Acme Corporation')
      .executeTakeFirstOrThrow();
    const { id } = await db()
      .transaction()
      .execute((trx) =>
        recordEvent(trx, {
          eventName: 'TenantUserCreated',
          tenantId: acme.id,
          metadata: { actor: 'admin@example.com', action: 'create', email: 'down@acme.example' },
        }),
      );
    const failed = await eventually(async () => {
      const state = await eventState(db(), id);
      return state.hasError && state;
    });
    expect(failed.records.find((record) => record.workerName === 'notifications')).toMatchObject({
      hasError: true,
    });

    const started = await call('POST', '/api/dev/mail/catcher/start', 'admin@example.com');
    expect(started.statusCode).toBe(200);
    expect(started.json()).toEqual({ running: true, port: mailApp().catcherPort });
    expect((await call('POST', '/api/dev/mail/catcher/start', 'staff@example.com')).json()).toEqual(
      { running: true, port: mailApp().catcherPort },
    );

    const reset = await testApp().app.inject({
      method: 'POST',
      url: `/api/events/${id}/reset`,
      headers: { authorization: `Bearer ${await testApp().tokenFor('staff@example.com')}` },
      payload: { workerName: 'notifications' },
    });
    expect(reset.statusCode).toBe(200);
    await eventually(async () => (await eventState(db(), id)).isProcessed);
    const mail = await call('GET', '/api/dev/mail?to=down@acme.example', 'staff@example.com');
    expect((mail.json() as { messages: { subject: string }[] }).messages).toEqual([
      expect.objectContaining({ subject: 'You are invited to the Acme Corporation portal' }),
    ]);
  });
});
