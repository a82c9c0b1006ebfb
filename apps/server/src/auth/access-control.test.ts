import type { LightMyRequestResponse } from 'fastify';
import { generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import type { ConsoleApp } from '../http/console-app.ts';
import { anyRole, currentUser } from './guard.ts';
import { resolveRoles } from './roles.ts';
import { hashCookieValue, SESSION_COOKIE, Sessions } from './sessions.ts';
import { SigningKeyStore } from './signing-keys.ts';

let testApp: TestApp;
let secondInstance: TestApp | undefined;
let tenantId: number;

/** Tiny routes that exist only in this test: one per kind of declaration. */
function testRoutes(app: ConsoleApp): void {
  const userSchema = z.object({
    subject: z.string(),
    email: z.string(),
    name: z.string(),
    roles: z.array(z.string()),
    tenantId: z.number().optional(),
  });
  app.get(
    '/api/test/staff-only',
    { config: { allow: ['staff'] }, schema: { response: { 200: userSchema } } },
    async (request) => currentUser(request),
  );
  app.get('/svc/test/any-role', { config: { allow: anyRole } }, async (request) => ({
    email: currentUser(request).email,
  }));
  app.get('/api/test/undeclared', async () => ({ reached: true }));
}

beforeAll(async () => {
  testApp = await createTestApp({}, { routes: testRoutes });
  tenantId = await registerTenantUser(testApp, 'portal@acme.example');
});

afterAll(async () => {
  await secondInstance?.close();
  await testApp?.close();
});

const get = (url: string, authorization?: string) =>
  testApp.app.inject({
    method: 'GET',
    url,
    headers: authorization === undefined ? {} : { authorization },
  });

/** The answer to a signed-in caller that the route's roles do not admit: 403, and why. */
function expectForbidden(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(403);
  expect(response.json()).toEqual({ message: 'You do not have permission to do this' });
}

describe('the /api and /svc guard', () => {
  it('answers 401 without an Authorization header', async () => {
    const response = await get('/api/test/staff-only');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      message: 'Authentication required: send Authorization: Bearer <token>',
    });
  });

  it.each([
    ['not a bearer token', 'Basic dXNlcjpwYXNz'],
    ['a malformed token', 'Bearer not-a-jwt'],
    ['an empty bearer', 'Bearer '],
  ])('answers 401 for %s', async (_case, authorization) => {
    const response = await get('/api/test/staff-only', authorization);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toHaveProperty('message');
  });

  it('answers 401 for a token signed with another key', async () => {
    const { kid } = await new SigningKeyStore(testApp.database.db).signingKey();
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await sign(privateKey, kid, validClaims());
    const response = await get('/api/test/staff-only', `Bearer ${forged}`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'The access token signature is invalid' });

    const unknownKid = await sign(privateKey, 'unknown-key', validClaims());
    expect((await get('/api/test/staff-only', `Bearer ${unknownKid}`)).statusCode).toBe(401);
  });

  it('answers 401 for a wrong issuer, a wrong audience or an expired token', async () => {
    const { kid, privateKey } = await new SigningKeyStore(testApp.database.db).signingKey();
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[JWTPayload, string]> = [
      [
        { ...validClaims(), iss: 'https://elsewhere.example' },
        'The access token iss claim is invalid',
      ],
      [
        { ...validClaims(), aud: 'https://elsewhere.example' },
        'The access token aud claim is invalid',
      ],
      [{ ...validClaims(), iat: now - 120, exp: now - 60 }, 'The access token has expired'],
    ];
    for (const [claims, message] of cases) {
      const response = await get(
        '/api/test/staff-only',
        `Bearer ${await sign(privateKey, kid, claims)}`,
      );
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message });
    }
  });

  it('lets staff in and puts the verified user on the request', async () => {
    const response = await get(
      '/api/test/staff-only',
      `Bearer ${await testApp.tokenFor('staff@example.com')}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      subject: 'staff@example.com',
      email: 'staff@example.com',
      name: 'Sam Staff',
      roles: ['staff'],
    });
  });

  it('lets an admin into a staff route: admin implies staff', async () => {
    const token = await testApp.tokenFor('admin@example.com', { roles: ['admin'] });
    expect((await get('/api/test/staff-only', `Bearer ${token}`)).statusCode).toBe(200);
  });

  it('refuses a tenant user on a staff route with 403', async () => {
    const token = await testApp.tokenFor('portal@acme.example');
    const response = await get('/api/test/staff-only', `Bearer ${token}`);
    expectForbidden(response);
    // ... but lets it into a route open to every role.
    const open = await get('/svc/test/any-role', `Bearer ${token}`);
    expect(open.statusCode).toBe(200);
    expect(open.json()).toEqual({ email: 'portal@acme.example' });
  });

  it('refuses a token without any role', async () => {
    const token = await testApp.tokenFor('outsider@example.org');
    expect((await get('/svc/test/any-role', `Bearer ${token}`)).statusCode).toBe(403);
  });

  it('refuses every caller of a route that declares no roles (deny by default)', async () => {
    const token = await testApp.tokenFor('admin@example.com');
    const response = await get('/api/test/undeclared', `Bearer ${token}`);
    expectForbidden(response);
    expect((await get('/api/test/undeclared')).statusCode).toBe(401);
  });

  it('guards whatever the spelling of the path', async () => {
    const token = `Bearer ${await testApp.tokenFor('staff@example.com')}`;
    for (const url of [
      '/API/test/staff-only',
      '/api/api/test/staff-only',
      '/%61pi/test/staff-only',
    ]) {
      expect((await get(url)).statusCode, url).toBe(401);
      expect((await get(url, token)).statusCode, url).toBe(200);
    }
  });

  it('keeps an unknown /api path a 404 for a signed-in caller, and a 401 for anyone else', async () => {
    expect((await get('/api/no-such-thing')).statusCode).toBe(401);
    const token = await testApp.tokenFor('staff@example.com');
    expect((await get('/api/no-such-thing', `Bearer ${token}`)).statusCode).toBe(404);
  });
});

describe('GET /auth/session', () => {
  const sessionWith = (cookieValue?: string) =>
    testApp.app.inject({
      method: 'GET',
      url: '/auth/session',
      cookies: cookieValue === undefined ? {} : { [SESSION_COOKIE]: cookieValue },
    });

  it('answers 401 {isAuthenticated:false} without a cookie', async () => {
    const response = await sessionWith();
    expect(response.statusCode).toBe(401);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ isAuthenticated: false });
  });

  it('answers 401 for an unknown cookie', async () => {
    const response = await sessionWith('no-such-session');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ isAuthenticated: false });
  });

  it('answers 401 for an expired session', async () => {
    const cookieValue = 'an-expired-session';
    await testApp.database.db
      .insertInto('sessions')
      .values({
        id_hash: hashCookieValue(cookieValue),
        user_subject: 'staff@example.com',
        user_email: 'staff@example.com',
        user_name: 'Sam Staff',
        expires_at: new Date(Date.now() - 1000),
      })
      .execute();
    expect((await sessionWith(cookieValue)).statusCode).toBe(401);
  });

  it('stores only the hash of the cookie value', async () => {
    const sessions = new Sessions(testApp.database.db, testApp.config);
    const cookieValue = await sessions.create({
      subject: 's',
      email: 'staff@example.com',
      name: 'Sam Staff',
    });
    const rows = await testApp.database.db.selectFrom('sessions').select('id_hash').execute();
    expect(rows.map((row) => row.id_hash)).toContain(hashCookieValue(cookieValue));
    expect(rows.map((row) => row.id_hash)).not.toContain(cookieValue);
    expect((await sessionWith(cookieValue)).statusCode).toBe(200);
  });

  it('ends the session at the next call once a tenant user is removed', async () => {
    const email = 'leaver@initech.example';
    await registerTenantUser(testApp, email, tenantId);
    const sessions = new Sessions(testApp.database.db, testApp.config);
    const cookieValue = await sessions.create({ subject: email, email, name: 'Leaver' });

    const before = await sessionWith(cookieValue);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ isAuthenticated: true, userEmail: email });

    await testApp.database.db.deleteFrom('tenant_users').where('email', '=', email).execute();
    const after = await sessionWith(cookieValue);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ isAuthenticated: false });
    expect(await sessions.find(cookieValue)).toBeUndefined();
  });
});

describe('roles', () => {
  const config = {
    adminEmails: ['admin@example.com'],
    staffEmails: ['@example.com', 'ops@partner.example'],
  };
  const rolesOf = (email: string) => resolveRoles(testApp.database.db, config, email);

  it('derives admin, staff and tenant case-insensitively', async () => {
    expect(await rolesOf('ADMIN@Example.com')).toEqual({ roles: ['admin', 'staff'] });
    expect(await rolesOf('someone@EXAMPLE.com')).toEqual({ roles: ['staff'] });
    expect(await rolesOf('Ops@Partner.example')).toEqual({ roles: ['staff'] });
    expect(await rolesOf('other@partner.example')).toEqual({ roles: [] });
    expect(await rolesOf('someone@sub.example.com')).toEqual({ roles: [] });
    expect(await rolesOf('Portal@ACME.example')).toEqual({ roles: ['tenant'], tenantId });
  });
});

describe('signing keys in the database', () => {
  it('lets a second instance on the same database verify a token the first one minted', async () => {
    // Both instances serve one PUBLIC_URL, as behind a load balancer.
    secondInstance = await createTestApp(
      { publicUrl: testApp.config.publicUrl },
      { database: testApp.database, routes: testRoutes },
    );
    const sessions = new Sessions(testApp.database.db, testApp.config);
    const cookieValue = await sessions.create({
      subject: 'staff@example.com',
      email: 'staff@example.com',
      name: 'Sam Staff',
    });
    const minted = await testApp.app.inject({
      method: 'GET',
      url: '/auth/session',
      cookies: { [SESSION_COOKIE]: cookieValue },
    });
    const { accessToken } = minted.json<{ accessToken: string }>();

    const response = await secondInstance.app.inject({
      method: 'GET',
      url: '/api/test/staff-only',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: 'staff@example.com', roles: ['staff'] });
    const keys = await testApp.database.db.selectFrom('signing_keys').select('kid').execute();
    expect(keys).toHaveLength(1);
  });
});

function validClaims(): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: 'staff@example.com',
    name: 'Sam Staff',
    email: 'staff@example.com',
    upn: 'staff@example.com',
    roles: ['staff'],
    iss: testApp.config.publicUrl,
    aud: testApp.config.publicUrl,
    iat: now,
    exp: now + 60,
  };
}

function sign(privateKey: CryptoKey, kid: string, claims: JWTPayload): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).sign(privateKey);
}

async function registerTenantUser(testApp: TestApp, email: string, existingTenantId?: number) {
  const { db } = testApp.database;
  const stamp = { created_by: 'test', updated_by: 'test', updated_at: new Date() };
  let id = existingTenantId;
  if (id === undefined) {
    await db
      .insertInto('countries')
      .values({ id: 840, alpha2: 'US', alpha3: 'USA', name: 'United States', ...stamp })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    ({ id } = await db
      .insertInto('tenants')
      .values({ company_name: 'Acme Corporation', domicile_country_id: 840, ...stamp })
      .returning('id')
      .executeTakeFirstOrThrow());
  }
  await db
    .insertInto('tenant_users')
    .values({ email, tenant_id: id, ...stamp })
    .execute();
  return id;
}
