import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  /** Epoch milliseconds; undefined never expires. */
  expiresAt: number | undefined;
}

/**
 * The embedded identity provider's storage (interactions, codes, grants, its own sessions) in
 * process memory. The embedded provider serves one development process: a restart forgets
 * sign-ins in progress, and a second process would not know them. Production uses an external
 * issuer, so none of this state exists there.
 */
export function createMemoryAdapter(): new (model: string) => Adapter {
  const entries = new Map<string, Entry>();
  const keysOfGrant = new Map<string, Set<string>>();
  const keyOfUid = new Map<string, string>();
  const keyOfUserCode = new Map<string, string>();
  let writesSinceSweep = 0;

  const read = (key: string | undefined): AdapterPayload | undefined => {
    const entry = key === undefined ? undefined : entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      entries.delete(key as string);
      return undefined;
    }
    return entry.payload;
  };

  const sweep = () => {
    for (const key of [...entries.keys()]) read(key);
    for (const index of [keyOfUid, keyOfUserCode]) {
      for (const [id, key] of index) if (!entries.has(key)) index.delete(id);
    }
    for (const [grantId, keys] of keysOfGrant) {
      for (const key of keys) if (!entries.has(key)) keys.delete(key);
      if (keys.size === 0) keysOfGrant.delete(grantId);
    }
  };

  return class MemoryAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private key(id: string): string {
      return `${this.model}:${id}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const key = this.key(id);
      entries.set(key, {
        payload,
        expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined,
      });
      if (payload.grantId) {
        const keys = keysOfGrant.get(payload.grantId) ?? new Set<string>();
        keys.add(key);
        keysOfGrant.set(payload.grantId, keys);
      }
      if (payload.uid) keyOfUid.set(this.key(payload.uid), key);
      if (payload.userCode) keyOfUserCode.set(this.key(payload.userCode), key);
      if (++writesSinceSweep >= 100) {
        writesSinceSweep = 0;
        sweep();
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return read(this.key(id));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return read(keyOfUid.get(this.key(uid)));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return read(keyOfUserCode.get(this.key(userCode)));
    }

    async consume(id: string): Promise<void> {
      const payload = read(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      entries.delete(this.key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      for (const key of keysOfGrant.get(grantId) ?? []) entries.delete(key);
      keysOfGrant.delete(grantId);
    }
  };
}
