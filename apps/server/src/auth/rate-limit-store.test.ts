import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { TestBrowser } from '../../test/test-browser.ts';
import { deleteExpiredRateLimitCounters } from './rate-limit-store.ts';

// Two instances on one database: the sign-in rate limit counts hits on both.
let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  first = await createTestApp({ signInRateLimitPerMinute: 2 });
  second = await createTestApp({ signInRateLimitPerMinute: 2 }, { database: first.database });
});

afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe('rate limits shared by every instance (PostgreSQL counters)', () => {
  it('refuses on one instance a client that used up its limit on the other', async () => {
    const onFirst = new TestBrowser(first.config.publicUrl);
    const onSecond = new TestBrowser(second.config.publicUrl);
    expect((await onFirst.fetch('/authenticated')).status).toBe(302);
    expect((await onFirst.fetch('/authenticated')).status).toBe(302);
    const refused = await onSecond.fetch('/authenticated');
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('Too many sign-in attempts');
    // Each limited route counts apart.
    expect((await onSecond.fetch('/auth/callback')).status).toBe(400);
  });

  it('opens a new window once the old one ended, and deletes ended windows', async () => {
    const { db } = first.database;
    await sql`update rate_limit_counters set resets_at = now() - interval '1 second'`.execute(db);
    const browser = new TestBrowser(second.config.publicUrl);
    expect((await browser.fetch('/authenticated')).status).toBe(302);
    const counter = await db
      .selectFrom('rate_limit_counters')
      .select(['hits'])
      .where('scope', '=', 'GET /authenticated')
      .executeTakeFirstOrThrow();
    expect(counter.hits).toBe(1);

    await deleteExpiredRateLimitCounters(db);
    const left = await db.selectFrom('rate_limit_counters').select('scope').execute();
    expect(left).toEqual([{ scope: 'GET /authenticated' }]);
  });
});
