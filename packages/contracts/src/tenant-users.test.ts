import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INVALID_EMAIL_MESSAGE,
  isValidEmail,
  normalizeTenantUserEmail,
  tenantUserCreateSchema,
} from './tenant-users.ts';
import { REQUIRED_FIELDS_MESSAGE } from './tenants.ts';

const messagesOf = (input: unknown) =>
  tenantUserCreateSchema.safeParse(input).error?.issues.map((issue) => issue.message) ?? [];

describe('tenantUserCreateSchema', () => {
  it('trims and lower-cases the email', () => {
    expect(tenantUserCreateSchema.parse({ email: ' Ann.Lee@Acme.Example ', tenantId: 3 })).toEqual({
      email: 'ann.lee@acme.example',
      tenantId: 3,
    });
  });

  it('needs an email and a tenant (spec 5), with the alert as the message', () => {
    expect(messagesOf({})).toEqual([REQUIRED_FIELDS_MESSAGE, REQUIRED_FIELDS_MESSAGE]);
    expect(messagesOf({ email: '  ', tenantId: null })).toEqual([
      REQUIRED_FIELDS_MESSAGE,
      REQUIRED_FIELDS_MESSAGE,
    ]);
  });

  it.each(['plain', 'a@b', '@acme.example', 'a b@acme.example', 'a@acme..example', 'a@@b.example'])(
    'refuses the email %j',
    (email) => {
      expect(messagesOf({ email, tenantId: 1 })).toEqual([INVALID_EMAIL_MESSAGE]);
    },
  );

  it.each([
    [{ email: 'a@b.example', tenantId: '1' }, 'tenantId must be a number'],
    [{ email: 'a@b.example', tenantId: 0 }, 'tenantId must be between 1 and 2147483647'],
    [{ email: ['a@b.example'], tenantId: 1 }, 'email must be a string'],
  ])('refuses %j: %s', (input, message) => {
    expect(messagesOf(input)).toEqual([message]);
  });
});

describe('normalizeTenantUserEmail', () => {
  it('is idempotent and leaves no capitals or outer spaces', () => {
    fc.assert(
      fc.property(fc.string(), (email) => {
        const normalized = normalizeTenantUserEmail(email);
        expect(normalizeTenantUserEmail(normalized)).toBe(normalized);
        expect(normalized).toBe(normalized.trim());
        expect(normalized).toBe(normalized.toLowerCase());
      }),
    );
  });

  it.each([
    'portal@acme.example',
    'first.last+tag@sub.domain.example',
    "o'brien@globex.co.uk",
    'user_1-x@x-y.example',
  ])('accepts the usual address %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
    expect(tenantUserCreateSchema.parse({ email, tenantId: 1 }).email).toBe(email);
  });

  it('refuses an address longer than 254 characters', () => {
    expect(isValidEmail(`${'a'.repeat(64)}@${'b'.repeat(185)}.com`)).toBe(true);
    expect(isValidEmail(`${'a'.repeat(64)}@${'b'.repeat(186)}.com`)).toBe(false);
  });
});
