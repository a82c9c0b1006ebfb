import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  KEY_DELETION_REQUIRED_MESSAGE,
  displayKeyValue,
  entityUserKeyParamsSchema,
  entityUserListQuerySchema,
  entityUserTypeLabel,
  entityUsersApi,
  validateKeyDeletion,
} from './entity-users.ts';
import { apiPath } from './api.ts';

describe('validateKeyDeletion', () => {
  it("needs both the user id and the key name (spec 5), with the spec's message", () => {
    expect(validateKeyDeletion('u1', 'api_key')).toBeNull();
    expect(validateKeyDeletion('u1', ' ')).toBeNull();
    for (const [userId, keyName] of [
      ['', 'api_key'],
      ['u1', ''],
      [undefined, 'api_key'],
      ['u1', null],
      ['', ''],
    ] as const) {
      expect(validateKeyDeletion(userId, keyName)).toBe(KEY_DELETION_REQUIRED_MESSAGE);
    }
    expect(KEY_DELETION_REQUIRED_MESSAGE).toBe(
      'User ID and key name are required for key deletion',
    );
  });
});

describe('entityUserKeyParamsSchema', () => {
  it('passes any non-empty names through as they are', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 50 }).filter((text) => !text.includes('\u0000')),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 50 }),
        (userId, keyName) => {
          expect(entityUserKeyParamsSchema.parse({ userId, keyName })).toEqual({ userId, keyName });
        },
      ),
    );
  });

  it('refuses a missing part with a custom issue carrying the message word for word', () => {
    const issues = entityUserKeyParamsSchema.safeParse({ userId: 'u1' }).error?.issues ?? [];
    expect(issues.map((issue) => [issue.code, issue.path, issue.message])).toEqual([
      ['custom', ['keyName'], KEY_DELETION_REQUIRED_MESSAGE],
    ]);
    expect(
      entityUserKeyParamsSchema.safeParse({ userId: '', keyName: 'k' }).error?.issues[0]?.path,
    ).toEqual(['userId']);
  });

  it('refuses the NUL character and names over 1000 characters', () => {
    expect(
      entityUserKeyParamsSchema.safeParse({ userId: 'u', keyName: 'a\u0000' }).error?.issues[0]
        ?.message,
    ).toBe('keyName must not contain the NUL character');
    expect(
      entityUserKeyParamsSchema.safeParse({ userId: 'u'.repeat(1001), keyName: 'k' }).error
        ?.issues[0]?.message,
    ).toBe('userId must be 1000 characters or less');
  });
});

describe('the key deletion path', () => {
  const keyPath = (userId: string, keyName: string) =>
    apiPath(entityUsersApi.deleteKey, { userId, keyName });

  it('URL-encodes both parts, slashes included', () => {
    expect(keyPath('u 1', 'a/b c[0]✓')).toBe(
      '/api/EntityUser/u%201/keys/a%2Fb%20c%5B0%5D%E2%9C%93',
    );
  });

  it('decodes back to the same parts', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (userId, keyName) => {
        const [, , , encodedUser, , encodedKey] = keyPath(userId, keyName).split('/');
        expect(decodeURIComponent(encodedUser ?? '')).toBe(userId);
        expect(decodeURIComponent(encodedKey ?? '')).toBe(keyName);
      }),
    );
  });
});

describe('entityUserListQuerySchema', () => {
  it('sorts by partyUserId, ascending by default', () => {
    expect(entityUserListQuerySchema.parse({}).sort).toBe('partyUserId');
    expect(entityUserListQuerySchema.parse({ sort: '-partyUserId' }).sort).toBe('-partyUserId');
    expect(entityUserListQuerySchema.safeParse({ sort: 'partyEntityId' }).success).toBe(false);
  });
});

describe('entityUserTypeLabel', () => {
  it('shows 0 as primary, 1 as standard, otherwise the number (spec 3)', () => {
    expect(entityUserTypeLabel(0)).toBe('primary');
    expect(entityUserTypeLabel(1)).toBe('standard');
    expect(entityUserTypeLabel(2)).toBe('2');
    expect(entityUserTypeLabel(-1)).toBe('-1');
  });
});

describe('displayKeyValue', () => {
  it('keeps values up to 50 characters, and shows longer ones as 47 and an ellipsis (spec 9)', () => {
    expect(displayKeyValue('x'.repeat(50))).toBe('x'.repeat(50));
    expect(displayKeyValue('x'.repeat(51))).toBe(`${'x'.repeat(47)}...`);
    expect(displayKeyValue('')).toBe('');
  });

  it('never shows more than 50 characters, and never splits a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (value) => {
        const shown = displayKeyValue(value);
        expect([...shown].length).toBeLessThanOrEqual(50);
        if ([...value].length <= 50) expect(shown).toBe(value);
        else expect(value.startsWith(shown.slice(0, -3))).toBe(true);
      }),
    );
  });
});
