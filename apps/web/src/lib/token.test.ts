import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeBase64Url, makeTestToken } from './test-tokens';
import { decodeTokenPayload, rolesClaim, stringClaim } from './token';

describe('decodeTokenPayload', () => {
  it('reads the JSON payload of the second segment', () => {
    const claims = { name: 'Ada Lovelace', upn: 'ada@example.com', roles: ['admin'], tid: 7 };
    expect(decodeTokenPayload(makeTestToken(claims))).toEqual(claims);
  });

  it('decodes UTF-8 names and base64url characters', () => {
    // '>>>' and '???' encode to base64 with '+' and '/', which base64url writes as '-' and '_'.
    const claims = { name: 'Zoë Ångström 日本', note: '>>>???' };
    const token = makeTestToken(claims);
    expect(token.split('.')[1]).toMatch(/[-_]/);
    expect(decodeTokenPayload(token)).toEqual(claims);
  });

  it.each([
    ['no token', undefined],
    ['null', null],
    ['an empty string', ''],
    ['a single segment', 'onlyone'],
    ['an empty second segment', 'header..signature'],
  ])('gives nothing for %s', (_label, token) => {
    expect(decodeTokenPayload(token)).toBeUndefined();
  });

  it.each([
    ['characters outside base64url', 'h.eyJ$YSI6MX0.s'],
    ['base64 padding', `h.${encodeBase64Url('{"a":1}')}==.s`],
    ['an impossible length', 'h.eyJhI.s'],
    ['bytes that are not UTF-8', `h.${btoa('{"a":"\xff"}').replace(/=+$/, '')}.s`],
  ])('gives nothing for %s', (_label, token) => {
    expect(decodeTokenPayload(token)).toBeUndefined();
  });

  it.each([
    ['text that is not JSON', 'not json'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"name"'],
    ['JSON null', 'null'],
  ])('gives nothing when the payload is %s', (_label, payload) => {
    expect(decodeTokenPayload(`h.${encodeBase64Url(payload)}.s`)).toBeUndefined();
  });

  it('round-trips any JSON object encoded as base64url in the middle segment', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (claims) => {
        const json = JSON.stringify(claims);
        expect(decodeTokenPayload(`h.${encodeBase64Url(json)}.s`)).toEqual(JSON.parse(json));
      }),
    );
  });
});

describe('claim readers', () => {
  it('reads only non-blank string claims', () => {
    const payload = { name: 'Ada', blank: '  ', number: 5 };
    expect(stringClaim(payload, 'name')).toBe('Ada');
    expect(stringClaim(payload, 'blank')).toBeUndefined();
    expect(stringClaim(payload, 'number')).toBeUndefined();
    expect(stringClaim(undefined, 'name')).toBeUndefined();
  });

  it('reads roles as a list of strings', () => {
    expect(rolesClaim({ roles: ['admin', 3, 'staff'] as unknown as string[] })).toEqual([
      'admin',
      'staff',
    ]);
    expect(rolesClaim({ roles: 'admin' as unknown as string[] })).toEqual([]);
    expect(rolesClaim(undefined)).toEqual([]);
  });
});
