import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { seedDemoData } from '../db/seed/demo.ts';
import { recordEvent } from './outbox.ts';
import { eventState, eventually } from './test-support.ts';
import { freePort } from '../net/free-port.ts';

describe('POST /api/dev/mail/catcher/stop|start (the development SMTP catcher)', () => {
  let testApp: TestApp;
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
    testApp = await createTestApp({
      smtpCatcherPort: port,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      eventPollIntervalMs: 50,
    });
    await seedDemoData(testApp.database.db);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const call = async (method: 'GET' | 'POST', url: string, email?: string) =>
    testApp.app.inject({
      method,
      url,
      headers: email ? { authorization: `Bearer ${await testApp.tokenFor(email)}` } : {},
    });

  it('refuses everyone but staff', async () => {
    for (const action of ['stop', 'start']) {
      const url = `/api/dev/mail/catcher/${action}`;
      expect((await call('POST', url)).statusCode).toBe(401);
      expect((await call('POST', url, 'portal@acme.example')).statusCode).toBe(403);
    }
    expect(testApp.app.eventServices.catcher?.isRunning).toBe(true);
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

    const acme = await testApp.database.db
      .selectFrom('tenants')
      .select('id')
      .where('company_name', '=', 'Acme Corporation')
      .executeTakeFirstOrThrow();
    const { id } = await testApp.database.db.transaction().execute((trx) =>
      recordEvent(trx, {
        eventName: 'TenantUserCreated',
        tenantId: acme.id,
        metadata: { actor: 'admin@example.com', action: 'create', email: 'down@acme.example' },
      }),
    );
    const failed = await eventually(async () => {
      const state = await eventState(testApp.database.db, id);
      return state.hasError && state;
    });
    expect(failed.records.find((record) => record.workerName === 'notifications')).toMatchObject({
      hasError: true,
    });

    const started = await call('POST', '/api/dev/mail/catcher/start', 'admin@example.com');
    expect(started.statusCode).toBe(200);
    expect(started.json()).toEqual({ running: true, port });
    expect((await call('POST', '/api/dev/mail/catcher/start', 'staff@example.com')).json()).toEqual(
      { running: true, port },
    );

    const reset = await testApp.app.inject({
      method: 'POST',
      url: `/api/events/${id}/reset`,
      headers: { authorization: `Bearer ${await testApp.tokenFor('staff@example.com')}` },
      payload: { workerName: 'notifications' },
    });
    expect(reset.statusCode).toBe(200);
    await eventually(async () => (await eventState(testApp.database.db, id)).isProcessed);
    const mail = await call('GET', '/api/dev/mail?to=down@acme.example', 'staff@example.com');
    expect((mail.json() as { messages: { subject: string }[] }).messages).toEqual([
      expect.objectContaining({ subject: 'You are invited to the Acme Corporation portal' }),
    ]);
  });
});
