import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { AccessTokens, SigningKeyStore } from '../src/auth/index.ts';
import { loadConfig } from '../src/config.ts';
import type { DatabaseHandle } from '../src/db/connection.ts';
import type { TestApp } from './test-app.ts';

/**
 * Signed-in callers for endpoint tests: one token per named caller, minted as the server would
 * mint it now, and one way to call the app as any of them (or as 'anonymous', with no token).
 */

export const SQL_INJECTION = "'); drop table tenants, countries, document_types; --";
export const HTML_INJECTION = '<script>alert(1)</script>';

/** The audit columns every insert of a fixture row needs. */
export const stamp = { created_by: 'test', updated_by: 'test', updated_at: new Date() };

export interface Callers<Name extends string> {
  /** A call as `caller`: a JSON body when `body` is an object, raw JSON text when a string. */
  call(
    caller: Name | 'anonymous',
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** The access token of `caller`, for calls made without `call` (over a real connection). */
  tokenOf(caller: Name): string;
  /** Mints the token of `caller` again, with the roles the server would give it now. */
  refreshToken(caller: Name): Promise<void>;
}

export async function signInCallers<Name extends string>(
  testApp: TestApp,
  emails: Record<Name, string>,
): Promise<Callers<Name>> {
  const tokens = new Map<string, string>();
  const refreshToken = async (caller: Name) => {
    tokens.set(caller, await testApp.tokenFor(emails[caller]));
  };
  for (const caller of Object.keys(emails) as Name[]) await refreshToken(caller);
  return {
    call(caller, method, url, body, headers = {}) {
      const token = tokens.get(caller);
      return testApp.app.inject({
        method,
        url,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          // Text is sent as it is, as a JSON body (malformed JSON, a bare number, ...).
          ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body === undefined ? {} : { payload: body as string | object }),
      });
    },
    tokenOf: (caller) => tokens.get(caller) ?? '',
    refreshToken,
  };
}

/**
 * A staff access token that a server on `database` at `publicUrl` accepts, for a server run as a
 * process of its own: minted with the signing keys it keeps in the database.
 */
export async function staffTokenFor(database: DatabaseHandle, publicUrl: string): Promise<string> {
  const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: publicUrl });
  const tokens = new AccessTokens(new SigningKeyStore(database.db, config), config);
  return tokens.mint({
    subject: 'staff@example.com',
    email: 'staff@example.com',
    name: 'Sam Staff',
    roles: ['staff'],
  });
}
