import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AppConfig } from '../src/config.ts';
import { seedDemoData } from '../src/db/seed/demo.ts';
import { freePort } from '../src/net/free-port.ts';
import { createTestApp, type TestApp } from './test-app.ts';

export interface MailTestApp {
  testApp: TestApp;
  /** The port of the development SMTP catcher, which is also where the app sends its mail. */
  catcherPort: number;
  /** A call as `email` (with the roles the server gives it now), or anonymous without one. */
  call(
    method: InjectOptions['method'],
    url: string,
    email?: string,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * A server on the demo data whose development SMTP catcher listens on a free port and catches
 * the server's own mail, for the tests of the /api/dev/mail routes. Its event workers poll every
 * 50 ms, so that an invitation is mailed soon after it is recorded. `overrides` as createTestApp's.
 */
export async function createMailTestApp(overrides: Partial<AppConfig> = {}): Promise<MailTestApp> {
  const catcherPort = await freePort();
  const testApp = await createTestApp({
    smtpCatcherPort: catcherPort,
    smtpUrl: `smtp://127.0.0.1:${catcherPort}`,
    eventPollIntervalMs: 50,
    ...overrides,
  });
  try {
    await seedDemoData(testApp.database.db);
  } catch (error) {
    await testApp.close();
    throw error;
  }
  return {
    testApp,
    catcherPort,
    call: async (method, url, email) =>
      testApp.app.inject({
        method,
        url,
        headers: email ? { authorization: `Bearer ${await testApp.tokenFor(email)}` } : {},
      }),
    close: () => testApp.close(),
  };
}
