import { act, renderHook } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { clearTokens, setTokens } from './auth-session';
import {
  hasRole,
  initials,
  isAdmin,
  signedInUser,
  useIsAdmin,
  useSignedInUser,
} from './signed-in-user';
import { makeTestToken } from './test-tokens';

afterEach(() => {
  clearTokens();
  localStorage.clear();
});

describe('signedInUser', () => {
  it.each([undefined, null, ''])('shows Not Logged In without a token (%s)', (token) => {
    expect(signedInUser(token)).toEqual({
      name: 'Not Logged In',
      email: '',
      avatar: '',
      initials: 'NI',
    });
  });

  it.each([
    [{ name: 'Ada Lovelace', preferred_username: 'ada' }, 'Ada Lovelace'],
    [{ preferred_username: 'ada@example.com' }, 'ada@example.com'],
    [{ name: '   ', preferred_username: 'ada' }, 'ada'],
    [{ name: 42, preferred_username: 'ada' }, 'ada'],
    [{}, 'User'],
    [{ preferred_username: '' }, 'User'],
  ])('takes the name from %j as %s', (claims, name) => {
    expect(signedInUser(makeTestToken(claims)).name).toBe(name);
  });

  it('takes the email from the upn claim, not from email', () => {
    const token = makeTestToken({
      name: 'Ada',
      upn: 'ada@corp.example',
      email: 'ada@home.example',
    });
    expect(signedInUser(token)).toEqual({
      name: 'Ada',
      email: 'ada@corp.example',
      avatar: '',
      initials: 'AD',
    });
    expect(signedInUser(makeTestToken({ name: 'Ada', email: 'ada@home.example' })).email).toBe('');
  });

  it('shows User with no email for a token it cannot read', () => {
    expect(signedInUser('not-a-token')).toEqual({
      name: 'User',
      email: '',
      avatar: '',
      initials: 'US',
    });
  });
});

describe('initials', () => {
  it.each([
    ['John Smith', 'JS'],
    ['john ronald reuel tolkien', 'JT'],
    ['  ada   lovelace  ', 'AL'],
    ['Madonna', 'MA'],
    ['x', 'X'],
    ['', '??'],
    ['   ', '??'],
    ['Élodie Ñúñez', 'ÉÑ'],
    ['ßen', 'ßE'],
    ['😀 smile', '😀S'],
  ])('%j gives %j', (name, expected) => {
    expect(initials(name)).toBe(expected);
  });

  it("is '??' exactly when the name is blank, otherwise one or two characters", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (name) => {
        const result = initials(name);
        if (name.trim() === '') {
          expect(result).toBe('??');
        } else {
          const length = Array.from(result).length;
          expect(length).toBeGreaterThanOrEqual(1);
          expect(length).toBeLessThanOrEqual(2);
        }
      }),
    );
  });

  it('has length 2 (or is ??) for every name of two-letter-or-longer words', () => {
    const word = fc.stringMatching(/^[A-Za-z]{2,12}$/);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 5 }), (words) => {
        const result = initials(words.join(' '));
        expect(result === '??' || result.length === 2).toBe(true);
        expect(result === '??').toBe(words.length === 0);
      }),
    );
  });

  it('is the upper-cased first letters of the first and last words', () => {
    const word = fc.stringMatching(/^[a-z]{1,12}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 5 }), (words) => {
        const expected = `${words[0]![0]}${words[words.length - 1]![0]}`.toUpperCase();
        expect(initials(words.join(' '))).toBe(expected);
      }),
    );
  });
});

describe('roles', () => {
  const admin = makeTestToken({ name: 'Ada', roles: ['staff', 'admin'] });
  const staff = makeTestToken({ name: 'Bob', roles: ['staff'] });

  it('reads the roles claim', () => {
    expect(hasRole(admin, 'staff')).toBe(true);
    expect(hasRole(staff, 'tenant')).toBe(false);
    expect(hasRole(makeTestToken({ roles: 'staff' }), 'staff')).toBe(false);
  });

  it('is admin only with the admin role', () => {
    expect(isAdmin(admin)).toBe(true);
    expect(isAdmin(staff)).toBe(false);
    expect(isAdmin(makeTestToken({ roles: ['Admin'] }))).toBe(false);
    expect(isAdmin(makeTestToken({ upn: 'admin@example.com' }))).toBe(false);
    expect(isAdmin(null)).toBe(false);
    expect(isAdmin('garbage')).toBe(false);
  });
});

describe('hooks', () => {
  it('follow the auth session', () => {
    const user = renderHook(() => useSignedInUser());
    const admin = renderHook(() => useIsAdmin());
    expect(user.result.current.name).toBe('Not Logged In');
    expect(admin.result.current).toBe(false);

    act(() =>
      setTokens({
        accessToken: makeTestToken({
          name: 'Ada Lovelace',
          upn: 'ada@example.com',
          roles: ['admin'],
        }),
        userEmail: 'ada@example.com',
      }),
    );
    expect(user.result.current).toMatchObject({ name: 'Ada Lovelace', initials: 'AL' });
    expect(admin.result.current).toBe(true);

    act(() => clearTokens());
    expect(user.result.current.name).toBe('Not Logged In');
    expect(admin.result.current).toBe(false);
  });
});
