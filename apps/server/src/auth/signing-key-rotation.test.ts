import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../test/test-database.ts';
import type { DatabaseHandle } from '../db/connection.ts';
import { AccessTokens, InvalidAccessTokenError } from './access-token.ts';
import { deleteRetiredSigningKeys, rotateSigningKey, SigningKeyStore } from './signing-keys.ts';

// Two instances (two key stores) on one database, as two servers would be.
const TTL_SECONDS = 60;
const RELOAD_MS = 200;
const settings = { accessTokenTtlSeconds: TTL_SECONDS, signingKeyRotationDays: 0 };
const tokenConfig = { publicUrl: 'https://console.example', accessTokenTtlSeconds: TTL_SECONDS };
const user = { subject: 'a@example.com', email: 'a@example.com', name: 'A', roles: [] };

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

function instance(overrides: Partial<typeof settings> = {}) {
  const keys = new SigningKeyStore(database.db, {
    ...settings,
    ...overrides,
    reloadIntervalMs: RELOAD_MS,
  });
  return { keys, tokens: new AccessTokens(keys, tokenConfig) };
}

const pastReload = () => new Promise((resolve) => setTimeout(resolve, RELOAD_MS + 50));

describe('signing key rotation', () => {
  it('is picked up by every instance without a restart; old tokens verify until they expire', async () => {
    const first = instance();
    const second = instance();
    const { kid: original } = await first.keys.signingKey();
    expect((await second.keys.signingKey()).kid).toBe(original);
    const oldToken = await first.tokens.mint(user);

    const rotated = await rotateSigningKey(database.db);
    await pastReload();
    expect((await first.keys.signingKey()).kid).toBe(rotated);
    expect((await second.keys.signingKey()).kid).toBe(rotated);
    expect(rotated).not.toBe(original);

    // The previous key still verifies the tokens it signed, on both instances.
    expect((await second.tokens.verify(oldToken)).email).toBe('a@example.com');
    expect((await first.tokens.verify(await second.tokens.mint(user))).email).toBe('a@example.com');

    // Once every token it may have signed has expired, it verifies no more.
    await sql`update signing_keys set retired_at = now() - make_interval(secs => ${TTL_SECONDS + 1 + RELOAD_MS / 1000})
      where kid = ${original}`.execute(database.db);
    await pastReload();
    const refusal = await second.tokens.verify(oldToken).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidAccessTokenError);
    expect((refusal as Error).message).toBe('The access token is not signed by this server');

    // ...and the cleanup deletes it (past the production reload interval too), not the key in use.
    await sql`update signing_keys set retired_at = now() - interval '1 hour' where kid = ${original}`.execute(
      database.db,
    );
    await deleteRetiredSigningKeys(database.db, settings);
    const left = await database.db.selectFrom('signing_keys').select('kid').execute();
    expect(left.map((row) => row.kid)).toEqual([rotated]);
  });

  it('rotates by itself once the signing key is older than SIGNING_KEY_ROTATION_DAYS', async () => {
    const first = instance({ signingKeyRotationDays: 30 });
    const second = instance({ signingKeyRotationDays: 30 });
    const { kid: current } = await first.keys.signingKey();
    await sql`update signing_keys set created_at = now() - interval '29 days'`.execute(database.db);
    await pastReload();
    expect((await first.keys.signingKey()).kid).toBe(current);

    await sql`update signing_keys set created_at = now() - interval '31 days'`.execute(database.db);
    await pastReload();
    // Both instances check at their reload; one makes the key, both sign with it.
    const [fromFirst, fromSecond] = await Promise.all([
      first.keys.signingKey(),
      second.keys.signingKey(),
    ]);
    expect(fromFirst.kid).not.toBe(current);
    expect(fromSecond.kid).toBe(fromFirst.kid);
    const keys = await database.db
      .selectFrom('signing_keys')
      .select(['kid', 'retired_at'])
      .orderBy('created_at')
      .execute();
    expect(keys.filter((key) => key.retired_at === null).map((key) => key.kid)).toEqual([
      fromFirst.kid,
    ]);
  });
});

describe('verified tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('are remembered only until they expire', async () => {
    const { tokens } = instance();
    const token = await tokens.mint(user);
    // Verified once (and remembered), then again while valid.
    expect((await tokens.verify(token)).email).toBe('a@example.com');
    expect((await tokens.verify(token)).email).toBe('a@example.com');

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (TTL_SECONDS + 1) * 1000 });
    const refusal = await tokens.verify(token).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidAccessTokenError);
    expect((refusal as Error).message).toBe('The access token has expired');
  });

  it('are not shared with a token that differs in its signature', async () => {
    const { tokens } = instance();
    const token = await tokens.mint(user);
    expect((await tokens.verify(token)).email).toBe('a@example.com');
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(86)}`;
    const refusal = await tokens.verify(forged).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidAccessTokenError);
  });
});
