import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from 'jose';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export const SIGNING_ALGORITHM = 'ES256';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

interface LoadedKeys {
  signing: SigningKey;
  publicKeys: Map<string, CryptoKey>;
}

export interface SigningKeySettings {
  /** A retired key verifies for this long after it stopped signing (the tokens it signed live). */
  accessTokenTtlSeconds: number;
  /** A new key after this many days (0: only when rotated by the admin command). */
  signingKeyRotationDays: number;
  /** How often an instance re-reads the keys (picks up a rotation made elsewhere). */
  reloadIntervalMs?: number;
}

const DEFAULT_SETTINGS: SigningKeySettings = {
  accessTokenTtlSeconds: 15 * 60,
  signingKeyRotationDays: 0,
};
const DEFAULT_RELOAD_INTERVAL_MS = 30_000;
/** Serializes key creation and rotation across instances (pg_advisory_xact_lock). */
const ROTATION_LOCK = 7_301_001;

/**
 * The keys that sign access tokens, kept in the `signing_keys` table so that every instance
 * verifies every token. Every instance signs with the newest key that is not retired, and re-reads
 * the table every `reloadIntervalMs` (so a rotation made by another instance or by the admin
 * command is picked up without a restart) and when a token names a kid it does not know.
 *
 * A rotation retires the signing key: it still verifies for the access token lifetime plus one
 * reload interval (an instance may sign with it until its next reload), then no longer.
 */
export class SigningKeyStore {
  private loaded: Promise<LoadedKeys> | undefined;
  private lastReload = 0;
  private readonly settings: Required<SigningKeySettings>;

  constructor(
    private readonly db: Kysely<Database>,
    settings: SigningKeySettings = DEFAULT_SETTINGS,
  ) {
    this.settings = { reloadIntervalMs: DEFAULT_RELOAD_INTERVAL_MS, ...settings };
  }

  async signingKey(): Promise<SigningKey> {
    return (await this.keys()).signing;
  }

  /** The public key for `kid`, or undefined when no instance made it or it no longer verifies. */
  async publicKey(kid: string): Promise<CryptoKey | undefined> {
    const known = (await this.keys()).publicKeys.get(kid);
    if (known) return known;
    // Unknown kids come from forged tokens too: re-read the table at most once a second.
    if (Date.now() - this.lastReload < 1000) return undefined;
    this.loaded = undefined;
    return (await this.keys()).publicKeys.get(kid);
  }

  private keys(): Promise<LoadedKeys> {
    if (this.loaded && Date.now() - this.lastReload >= this.settings.reloadIntervalMs) {
      this.loaded = undefined;
    }
    if (!this.loaded) {
      this.lastReload = Date.now();
      const loading = this.load();
      this.loaded = loading;
      // A failed read (database down) must not be cached: the next call tries again.
      loading.catch(() => {
        if (this.loaded === loading) this.loaded = undefined;
      });
    }
    return this.loaded;
  }

  private async load(): Promise<LoadedKeys> {
    let rows = await this.readRows();
    if (this.needsNewKey(rows)) {
      await this.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${ROTATION_LOCK})`.execute(trx);
        // Another instance may have made one while this one waited for the lock.
        if (this.needsNewKey(await readVerifyingKeys(trx, this.verifyWindowMs()))) {
          await addSigningKey(trx);
        }
      });
      rows = await this.readRows();
    }
    const publicKeys = new Map<string, CryptoKey>();
    for (const row of rows) {
      publicKeys.set(row.kid, await importKey(row.public_jwk));
    }
    const current = rows.find((row) => row.retired_at === null);
    if (!current) throw new Error('No signing key could be created');
    return {
      signing: { kid: current.kid, privateKey: await importKey(current.private_jwk) },
      publicKeys,
    };
  }

  /** No key signs yet, or the signing key is older than the rotation period. */
  private needsNewKey(rows: KeyRow[]): boolean {
    const current = rows.find((row) => row.retired_at === null);
    if (!current) return true;
    const days = this.settings.signingKeyRotationDays;
    return days > 0 && Date.now() - current.created_at.getTime() >= days * 86_400_000;
  }

  private readRows(): Promise<KeyRow[]> {
    return readVerifyingKeys(this.db, this.verifyWindowMs());
  }

  private verifyWindowMs(): number {
    return this.settings.accessTokenTtlSeconds * 1000 + this.settings.reloadIntervalMs;
  }
}

interface KeyRow {
  kid: string;
  private_jwk: Record<string, unknown>;
  public_jwk: Record<string, unknown>;
  created_at: Date;
  retired_at: Date | null;
}

/** The signing key (newest first) and the retired keys that still verify. */
function readVerifyingKeys(db: Kysely<Database>, verifyWindowMs: number): Promise<KeyRow[]> {
  return db
    .selectFrom('signing_keys')
    .select(['kid', 'private_jwk', 'public_jwk', 'created_at', 'retired_at'])
    .where((where) =>
      where.or([
        where('retired_at', 'is', null),
        where(
          'retired_at',
          '>',
          sql<Date>`now() - make_interval(secs => ${verifyWindowMs / 1000})`,
        ),
      ]),
    )
    .orderBy('created_at', 'desc')
    .orderBy('kid', 'desc')
    .execute();
}

/**
 * Makes a new signing key now and retires the others (the admin command, and the rotation period).
 * Instances sign with it from their next reload; answers its kid.
 */
export async function rotateSigningKey(db: Kysely<Database>): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${ROTATION_LOCK})`.execute(trx);
    return addSigningKey(trx);
  });
}

/** Deletes the retired keys that no longer verify (their tokens have all expired). */
export async function deleteRetiredSigningKeys(
  db: Kysely<Database>,
  settings: Pick<SigningKeySettings, 'accessTokenTtlSeconds'>,
): Promise<void> {
  const windowMs = settings.accessTokenTtlSeconds * 1000 + DEFAULT_RELOAD_INTERVAL_MS;
  await db
    .deleteFrom('signing_keys')
    .where('retired_at', '<', sql<Date>`now() - make_interval(secs => ${windowMs / 1000})`)
    .execute();
}

/** Inserts a new key and retires every other one; runs under ROTATION_LOCK. */
async function addSigningKey(trx: Kysely<Database>): Promise<string> {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALGORITHM, {
    extractable: true,
  });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const withKid = (jwk: JWK) => ({ ...jwk, kid, alg: SIGNING_ALGORITHM, use: 'sig' });
  await trx
    .updateTable('signing_keys')
    .set({ retired_at: sql<Date>`now()` })
    .where('retired_at', 'is', null)
    .execute();
  // clock_timestamp(): a key made right after another in one transaction still sorts after it.
  await trx
    .insertInto('signing_keys')
    .values({
      kid,
      private_jwk: JSON.stringify(withKid(await exportJWK(privateKey))),
      public_jwk: JSON.stringify(withKid(publicJwk)),
      created_at: sql<Date>`clock_timestamp()`,
    })
    .execute();
  return kid;
}

async function importKey(jwk: Record<string, unknown>): Promise<CryptoKey> {
  const key = await importJWK(jwk as JWK, SIGNING_ALGORITHM);
  if (key instanceof Uint8Array) throw new Error('A signing key must be an asymmetric key');
  return key;
}
