import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailTestApp, type MailTestApp } from '../../test/mail-test-app.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signInWithEmbeddedProvider, TestBrowser } from '../../test/test-browser.ts';
import { freePort } from '../net/free-port.ts';
import { recordEvent } from '../outbox/outbox.ts';
import { eventState, eventually } from '../outbox/test-support.ts';
import { ConsoleMetrics } from './metrics.ts';

/**
 * Prometheus metrics (docs/operations.md, "Metrics"): GET /metrics with METRICS_TOKEN, or on
 * 127.0.0.1:METRICS_PORT; never with a browser session; the families an operator alerts on.
 */

const TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of an exposition-format text (comments left out). */
function parseSamples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`Not an exposition line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, name, value]) => [
          name,
          value,
        ]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The value of the sample `name` whose labels include `labels` (undefined: no such sample). */
function valueOf(text: string, name: string, labels: Record<string, string> = {}) {
  return parseSamples(text).find(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  )?.value;
}

/** The families a scrape declares (`# TYPE name type`). */
function families(text: string): Map<string, string> {
  return new Map(
    [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => [name!, type!]),
  );
}

let mailApp: MailTestApp;
let metricsPort: number;
const testApp = () => mailApp.testApp;
const db = () => testApp().database.db;

async function scrape(): Promise<string> {
  const response = await fetch(`${testApp().config.publicUrl}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  return response.text();
}

beforeAll(async () => {
  metricsPort = await freePort();
  mailApp = await createMailTestApp({ metricsToken: TOKEN, metricsPort });
});

afterAll(async () => {
  await mailApp?.close();
});

describe('who may scrape', () => {
  it('refuses a scrape without the metrics token, whatever else it carries', async () => {
    const url = `${testApp().config.publicUrl}/metrics`;
    const browser = new TestBrowser(testApp().config.publicUrl);
    expect((await signInWithEmbeddedProvider(browser, 'admin@example.com')).status).toBe(302);
    const accessToken = await testApp().tokenFor('admin@example.com');
    const refused = [
      await fetch(url),
      await fetch(url, { headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}x` } }),
      await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } }),
      await fetch(url, { headers: { authorization: `Basic ${btoa(`metrics:${TOKEN}`)}` } }),
      // A signed-in browser: its session cookie is no key to the metrics.
      await browser.fetch('/metrics'),
    ];
    for (const response of refused) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await response.text()).not.toContain('console_');
    }

    const allowed = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await allowed.text()).toContain('# TYPE console_http_request_duration_seconds');
  });

  it('answers on 127.0.0.1:METRICS_PORT without a token, and only at /metrics', async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(families(await response.text()).get('console_sign_ins_total')).toBe('counter');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
  });

  it('has no /metrics, counts nothing and opens no port with neither variable', async () => {
    const plain = await createTestApp();
    try {
      expect(plain.app.metrics).toBeUndefined();
      const response = await plain.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('closes the metrics port with the app', async () => {
    const port = await freePort();
    const withPort = await createTestApp({ metricsPort: port });
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    await withPort.close();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

describe('the families', () => {
  it('times requests by method, route template and status, never by raw path', async () => {
    const token = await testApp().tokenFor('staff@example.com');
    const call = (url: string) =>
      testApp().app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    for (let index = 0; index < 3; index++) {
      expect((await call('/api/countries')).statusCode).toBe(200);
    }
    expect((await call('/api/emailtemplates/987654')).statusCode).toBe(404);
    expect((await call('/no-such-page/123456?code=42')).statusCode).toBe(404);

    const text = await scrape();
    const count = (route: string, status: string) =>
      valueOf(text, 'console_http_request_duration_seconds_count', {
        method: 'GET',
        route,
        status_code: status,
      });
    expect(count('/api/countries', '200')).toBe(3);
    expect(count('/api/emailtemplates/:id', '404')).toBe(1);
    expect(count('unmatched', '404')).toBe(1);
    const labelValues = parseSamples(text).flatMap((sample) => Object.values(sample.labels));
    expect(labelValues.join(' ')).not.toMatch(/987654|123456|code=/);
    // The cached list: read from the database once, then answered from memory.
    const lookups = (outcome: string) =>
      valueOf(text, 'console_reference_cache_lookups_total', { list: 'countries', outcome });
    expect([lookups('miss'), lookups('hit')]).toEqual([1, 2]);
  });

  it('counts sign-ins by outcome', async () => {
    const signIns = (text: string, outcome: string) =>
      valueOf(text, 'console_sign_ins_total', { outcome }) ?? NaN;
    const before = await scrape();
    const browser = () => new TestBrowser(testApp().config.publicUrl);
    expect((await signInWithEmbeddedProvider(browser(), 'staff@example.com')).status).toBe(302);
    // No role: the console refuses the account.
    expect((await signInWithEmbeddedProvider(browser(), 'outsider@example.org')).status).toBe(403);
    // A callback without a sign-in of this browser.
    expect((await browser().fetch('/auth/callback?code=forged&state=forged')).status).toBe(400);

    const after = await scrape();
    expect(signIns(after, 'succeeded') - signIns(before, 'succeeded')).toBe(1);
    expect(signIns(after, 'refused') - signIns(before, 'refused')).toBe(2);
    expect(signIns(after, 'failed') - signIns(before, 'failed')).toBe(0);
  });

  it('counts the workers’ records and the mails by outcome', async () => {
    const invite = async (email: string) => {
      const { id } = await db()
        .transaction()
        .execute((trx) =>
          recordEvent(trx, { eventName: 'TenantUserCreated', tenantId: null, metadata: { email } }),
        );
      return id;
    };
    const before = await scrape();
    const sent = await invite('sent@acme.example');
    await eventually(async () => (await eventState(db(), sent)).isProcessed);
    await testApp().app.eventServices.catcher?.stop();
    const failed = await invite('refused@acme.example');
    await eventually(async () => (await eventState(db(), failed)).hasError);
    await testApp().app.eventServices.catcher?.start(mailApp.catcherPort);
    const testSend = await testApp().app.inject({
      method: 'POST',
      url: '/api/emailtemplates/testsend',
      headers: { authorization: `Bearer ${await testApp().tokenFor('staff@example.com')}` },
      payload: { ToAddress: 'qa@console.example', TemplateKey: 'tenant-user-invitation' },
    });
    expect(testSend.statusCode, testSend.body).toBe(200);
    // The test send is audited too (issue 31): its event goes through the audit trail.
    const testSent = await db()
      .selectFrom('events')
      .select('id')
      .where('event_name', '=', 'EmailTemplateTestSent')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await eventually(async () => (await eventState(db(), testSent.id)).isProcessed);

    const after = await scrape();
    const change = (name: string, labels: Record<string, string>) =>
      (valueOf(after, name, labels) ?? NaN) - (valueOf(before, name, labels) ?? NaN);
    const records = 'console_event_records_processed_total';
    expect(change(records, { worker: 'notifications', outcome: 'succeeded' })).toBe(1);
    expect(change(records, { worker: 'notifications', outcome: 'failed' })).toBe(1);
    // At least this test's three events (the invitations and the test send): the audit trail
    // may also finish records of earlier tests' events (a sign-in) meanwhile.
    expect(change(records, { worker: 'audit-trail', outcome: 'succeeded' })).toBeGreaterThanOrEqual(
      3,
    );
    expect(change('console_mails_total', { kind: 'invitation', outcome: 'sent' })).toBe(1);
    expect(change('console_mails_total', { kind: 'invitation', outcome: 'failed' })).toBe(1);
    expect(change('console_mails_total', { kind: 'template_test', outcome: 'sent' })).toBe(1);
  });

  it('reads the waiting records, the oldest one’s age and the import jobs from the database', async () => {
    await testApp().app.eventServices.dispatcher?.stop();
    const testEvent = () =>
      db()
        .transaction()
        .execute((trx) =>
          recordEvent(trx, { eventName: 'TestEvent', tenantId: null, metadata: {} }),
        );
    const oldest = await testEvent();
    await testEvent();
    await sql`update events set created_at = now() - interval '1 hour' where id = ${oldest.id}`.execute(
      db(),
    );
    // A third one that the audit trail failed: failed, no longer waiting.
    const failedBefore = valueOf(await scrape(), 'console_event_records_failed', {
      worker: 'audit-trail',
    });
    const failed = await testEvent();
    await sql`update processed_events set has_error = true, error_message = 'boom'
      where event_id = ${failed.id} and worker_name = 'audit-trail'`.execute(db());
    // A job that ended in failure (inserted as such: the API starts every job pending).
    await sql`insert into fatf_imports (status, options, record_count, created_by)
      values ('failed', '{}', 0, 'test')`.execute(db());

    const text = await scrape();
    expect(valueOf(text, 'console_event_records_waiting', { worker: 'audit-trail' })).toBe(2);
    expect(
      valueOf(text, 'console_event_oldest_waiting_age_seconds', { worker: 'audit-trail' }),
    ).toBeGreaterThanOrEqual(3600);
    expect(valueOf(text, 'console_event_records_failed', { worker: 'audit-trail' })).toBe(
      (failedBefore ?? 0) + 1,
    );
    expect(valueOf(text, 'console_event_records_waiting', { worker: 'notifications' })).toBe(0);
    expect(
      valueOf(text, 'console_event_oldest_waiting_age_seconds', { worker: 'notifications' }),
    ).toBe(0);
    expect(valueOf(text, 'console_ratings_import_jobs', { status: 'failed' })).toBe(1);
    expect(valueOf(text, 'console_ratings_import_jobs', { status: 'processing' })).toBe(0);
  });

  it('reports the database pool and Node’s runtime', async () => {
    const text = await scrape();
    expect(valueOf(text, 'console_db_pool_max_connections')).toBe(20);
    expect(valueOf(text, 'console_db_pool_connections')).toBeGreaterThan(0);
    expect(valueOf(text, 'console_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'console_db_pool_waiting_clients')).toBe(0);
    expect(Object.fromEntries(families(text))).toMatchObject({
      nodejs_eventloop_lag_p99_seconds: 'gauge',
      nodejs_heap_size_used_bytes: 'gauge',
      nodejs_gc_duration_seconds: 'histogram',
      process_cpu_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
    });
  });

  it('names every family with its unit and the console_ prefix', async () => {
    for (const [name, type] of families(await scrape())) {
      expect(name).toMatch(/^(console|nodejs|process)_[a-z0-9_]+$/);
      if (type === 'counter') expect(name).toMatch(/_total$/);
      if (type === 'histogram') expect(name).toMatch(/_seconds$/);
    }
  });
});

describe('what is read when scraped', () => {
  let databaseAnswers = true;
  const fromDatabase =
    <T>(value: T) =>
    () =>
      databaseAnswers ? Promise.resolve(value) : Promise.reject(new Error('connection refused'));
  const metrics = new ConsoleMetrics({
    workerNames: ['audit-trail'],
    pool: () => ({ total: 7, idle: 2, waiting: 3, max: 20 }),
    eventBacklog: fromDatabase([
      { worker: 'audit-trail', waiting: 4, oldestAgeSeconds: 9, failed: 2 },
    ]),
    importJobs: fromDatabase({ pending: 1, processing: 0, completed: 5, failed: 0, cancelled: 0 }),
  });

  it('reads the pool and the database at each scrape', async () => {
    const { body } = await metrics.render();
    expect(
      ['connections', 'idle_connections', 'waiting_clients', 'max_connections'].map((name) =>
        valueOf(body, `console_db_pool_${name}`),
      ),
    ).toEqual([7, 2, 3, 20]);
    expect(valueOf(body, 'console_event_records_waiting', { worker: 'audit-trail' })).toBe(4);
    expect(valueOf(body, 'console_event_oldest_waiting_age_seconds')).toBe(9);
    expect(valueOf(body, 'console_event_records_failed')).toBe(2);
    expect(valueOf(body, 'console_ratings_import_jobs', { status: 'completed' })).toBe(5);
  });

  it('leaves out what the database did not answer, and the rest of the scrape answers', async () => {
    databaseAnswers = false;
    const { body } = await metrics.render();
    expect(valueOf(body, 'console_db_pool_waiting_clients')).toBe(3);
    expect(valueOf(body, 'console_event_records_waiting')).toBeUndefined();
    expect(valueOf(body, 'console_event_oldest_waiting_age_seconds')).toBeUndefined();
    expect(valueOf(body, 'console_ratings_import_jobs')).toBeUndefined();
    expect(families(body).get('console_ratings_import_jobs')).toBe('gauge');
  });
});
