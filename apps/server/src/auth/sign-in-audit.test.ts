import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedSignInAudited } from '../../test/recorded-events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { signInWithEmbeddedProvider, TestBrowser } from '../../test/test-browser.ts';
import { eventually } from '../outbox/test-support.ts';

// Sign-in, refused sign-in and sign-out in the audit log (issue 31, part 4): who, when, from
// which address and browser, and why a sign-in was refused, through the real flow. The refusals
// of ID tokens (forged, wrong iss/aud/exp/nonce, another directory) are in
// sign-in-external-issuer.test.ts.

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

  it('records a refused sign-in with the address, the browser and why', async () => {
    const userAgent = `audit-test/${randomUUID()}`;
    const browser = new TestBrowser(testApp.config.publicUrl, userAgent);
    const refused = await signInWithEmbeddedProvider(browser, 'outsider@example.org');
    expect(refused.status).toBe(403);
    const row = await expectRefusedSignInAudited(testApp.database.db, userAgent, /^no role$/);
    expect(row).toMatchObject({
      actor: 'outsider@example.org',
      target_id: 'outsider@example.org',
    });
  });

  it('records every refused callback, naming nobody when no verified token said who', async () => {
    const cases = [
      ['an unknown state', `/auth/callback?code=made-up&state=${randomUUID()}`, /does not match/],
      ['no state', '/auth/callback?code=made-up', /^Sign-in callback without state$/],
      ['an error of the provider', '/auth/callback?error=access_denied', /access_denied/],
    ] as const;
    for (const [what, url, reason] of cases) {
      const userAgent = `audit-test/${randomUUID()}`;
      const response = await new TestBrowser(testApp.config.publicUrl, userAgent).fetch(url);
      expect(response.status, what).toBe(400);
      const row = await expectRefusedSignInAudited(testApp.database.db, userAgent, reason);
      expect(row, what).toMatchObject({ actor: null, target_id: null });
    }
  });

  it('records refusals up to the sign-in rate limit only, so that they cannot flood the log', async () => {
    const limited = await createTestApp({ signInRateLimitPerMinute: 2, eventPollIntervalMs: 50 });
    try {
      const userAgent = `audit-test/${randomUUID()}`;
      const browser = new TestBrowser(limited.config.publicUrl, userAgent);
      const statuses = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        statuses.push((await browser.fetch(`/auth/callback?state=${randomUUID()}`)).status);
      }
      expect(statuses).toEqual([400, 400, 429, 429]);
      const refusals = limited.database.db
        .selectFrom('events')
        .select('id')
        .where('event_name', '=', 'SignInRefused')
        .where(sql<string>`metadata ->> 'userAgent'`, '=', userAgent);
      expect(await refusals.execute()).toHaveLength(2);
      await expectRefusedSignInAudited(limited.database.db, userAgent, /does not match/);
    } finally {
      await limited.close();
    }
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
