import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from 'jose';
import type { Kysely } from 'kysely';
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

/**
 * The keys that sign access tokens, kept in the `signing_keys` table so that every instance
 * verifies every token. Loaded once and cached; a token whose kid is unknown makes the store read
 * the table again (another instance may have added a key since).
 */
export class SigningKeyStore {
  private loaded: Promise<LoadedKeys> | undefined;
  private lastReload = 0;

  constructor(private readonly db: Kysely<Database>) {}

  async signingKey(): Promise<SigningKey> {
    return (await this.keys()).signing;
  }

  /** The public key for `kid`, or undefined when no instance ever made it. */
  async publicKey(kid: string): Promise<CryptoKey | undefined> {
    const known = (await this.keys()).publicKeys.get(kid);
    if (known) return known;
    // Unknown kids come from forged tokens too: re-read the table at most once a second.
    if (Date.now() - this.lastReload < 1000) return undefined;
    this.loaded = undefined;
    return (await this.keys()).publicKeys.get(kid);
  }

  private keys(): Promise<LoadedKeys> {
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
    if (rows.length === 0) {
      await this.createKey();
      rows = await this.readRows();
    }
    const publicKeys = new Map<string, CryptoKey>();
    for (const row of rows) {
      publicKeys.set(row.kid, await importKey(row.public_jwk));
    }
    // Every instance signs with the oldest key, so two instances that raced to create the first
    // key still agree on one.
    const oldest = rows[0];
    if (!oldest) throw new Error('No signing key could be created');
    return {
      signing: { kid: oldest.kid, privateKey: await importKey(oldest.private_jwk) },
      publicKeys,
    };
  }

  private readRows() {
    return this.db
      .selectFrom('signing_keys')
      .select(['kid', 'private_jwk', 'public_jwk'])
      .orderBy('created_at', 'asc')
      .orderBy('kid', 'asc')
      .execute();
  }

  private async createKey(): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALGORITHM, {
      extractable: true,
    });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const withKid = (jwk: JWK) => ({ ...jwk, kid, alg: SIGNING_ALGORITHM, use: 'sig' });
    await this.db
      .insertInto('signing_keys')
      .values({
        kid,
        private_jwk: JSON.stringify(withKid(await exportJWK(privateKey))),
        public_jwk: JSON.stringify(withKid(publicJwk)),
      })
      .onConflict((conflict) => conflict.column('kid').doNothing())
      .execute();
  }
}

async function importKey(jwk: Record<string, unknown>): Promise<CryptoKey> {
  const key = await importJWK(jwk as JWK, SIGNING_ALGORITHM);
  if (key instanceof Uint8Array) throw new Error('A signing key must be an asymmetric key');
  return key;
}
