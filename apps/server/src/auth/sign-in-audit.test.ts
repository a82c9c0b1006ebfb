import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { signInWithEmbeddedProvider, TestBrowser } from '../../test/test-browser.ts';
import { eventually } from '../outbox/test-support.ts';

// Sign-in, refused sign-in and sign-out in the audit log (issue 31, part 4): who, when, from
// which address and browser, through the real flow.

let testApp: TestApp;

beforeAll(async () => {
  testApp = await createTestApp({ eventPollIntervalMs: 50 });
});

afterAll(async () => {
  await testApp?.close();
});

const auditRow = (actor: string, action: string) =>
  eventually(() =>
    testApp.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('actor', '=', actor)
      .where('action', '=', action)
      .executeTakeFirst(),
  );

describe('the audit log of sign-in', () => {
  it('records a sign-in and a sign-out with the address and the browser', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    await signInWithEmbeddedProvider(browser, 'staff@example.com');
    expect((await browser.fetch('/auth/session')).status).toBe(200);
    expect((await browser.fetch('/signout')).status).toBe(302);

    for (const [action, eventName] of [
      ['sign-in', 'SignedIn'],
      ['sign-out', 'SignedOut'],
    ] as const) {
      const row = await auditRow('staff@example.com', action);
      expect(row).toMatchObject({
        event_name: eventName,
        target_type: 'Session',
        target_id: 'staff@example.com',
        metadata: {
          ipAddress: expect.stringMatching(/127\.0\.0\.1/),
          userAgent: expect.any(String),
        },
      });
      expect(row.occurred_at).toBeInstanceOf(Date);
    }
  });

  it('records a refused sign-in', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    const refused = await signInWithEmbeddedProvider(browser, 'outsider@example.org');
    expect(refused.status).toBe(403);
    const row = await auditRow('outsider@example.org', 'sign-in-refused');
    expect(row).toMatchObject({ event_name: 'SignInRefused', target_type: 'Session' });
  });

  it('records nothing for a sign-out without a session', async () => {
    const browser = new TestBrowser(testApp.config.publicUrl);
    expect((await browser.fetch('/signout')).status).toBe(302);
    const signOuts = await testApp.database.db
      .selectFrom('events')
      .select('id')
      .where('event_name', '=', 'SignedOut')
      .execute();
    expect(signOuts).toHaveLength(1);
  });
});
