import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  REQUIRED_FIELDS_MESSAGE,
  generateNamespace,
  normalizeNamespaces,
  resolveNamespaces,
  tenantIdParamsSchema,
  tenantWriteSchema,
} from './tenants.ts';
import { expectNormalizesLists } from './testing.ts';

const at = new Date(1_700_000_123_456);

describe('generateNamespace', () => {
  it('uses the lower-case alphanumerics of the company name', () => {
    expect(generateNamespace('Globex Limited', at)).toBe('globexlimited');
    expect(generateNamespace('Acme Corporation', at)).toBe('acmecorporation');
    expect(generateNamespace('Müller & Söhne GmbH', at)).toBe('mllershnegmbh');
  });

  it('keeps at most 32 characters', () => {
    expect(generateNamespace('A'.repeat(40), at)).toBe('a'.repeat(32));
  });

  it("pads a short name with 'ns' and the last digits of the time to 8 characters", () => {
    expect(generateNamespace('Acme', at)).toBe('acmens56');
    expect(generateNamespace('Q', at)).toBe('qns23456');
    expect(generateNamespace('', at)).toBe('ns123456');
    expect(generateNamespace('株式会社', at)).toBe('ns123456');
    expect(generateNamespace('Globex', at)).toBe('globexns');
    expect(generateNamespace('Initech', at)).toBe('initechns');
    expect(generateNamespace('', new Date(42))).toBe('ns000042');
    expect(generateNamespace('', new Date(Number.NaN))).toBe('ns000000');
  });

  it('always gives 8 to 32 characters of a-z and 0-9', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), fc.date(), (name, now) => {
        expect(generateNamespace(name, now)).toMatch(/^[a-z0-9]{8,32}$/);
      }),
    );
  });
});

describe('normalizeNamespaces', () => {
  it('trims, drops empties and keeps each once', () => {
    expect(normalizeNamespaces([' acme ', 'acme', '', '  ', 'acme-eu'])).toEqual([
      'acme',
      'acme-eu',
    ]);
  });

  it('is idempotent and yields unique, trimmed, non-empty namespaces', () => {
    expectNormalizesLists(normalizeNamespaces, 10);
  });
});

describe('resolveNamespaces', () => {
  it('generates one only when none is given', () => {
    expect(resolveNamespaces('Acme Corporation', [' acme '], at)).toEqual(['acme']);
    expect(resolveNamespaces('Acme Corporation', ['', ' '], at)).toEqual(['acmecorporation']);
  });
});

describe('tenantWriteSchema', () => {
  it('needs a company name and a country, and normalises namespaces', () => {
    expect(
      tenantWriteSchema.parse({
        companyName: 'Acme Corporation',
        domicileCountryId: 840,
        namespaces: ['acme', ' acme'],
      }),
    ).toEqual({ companyName: 'Acme Corporation', domicileCountryId: 840, namespaces: ['acme'] });
    const missing = tenantWriteSchema.safeParse({ companyName: ' ', namespaces: [] });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues.map((issue) => issue.message)).toEqual([
      REQUIRED_FIELDS_MESSAGE,
      REQUIRED_FIELDS_MESSAGE,
    ]);
  });
});

describe('tenantWriteSchema, field by field', () => {
  const valid = { companyName: 'Acme', domicileCountryId: 840 };
  const messagesOf = (input: unknown) =>
    tenantWriteSchema.safeParse(input).error?.issues.map((issue) => issue.message) ?? [];

  it('treats absent and null the same: the required-fields alert', () => {
    expect(messagesOf({})).toEqual([REQUIRED_FIELDS_MESSAGE, REQUIRED_FIELDS_MESSAGE]);
    expect(messagesOf({ companyName: null, domicileCountryId: null })).toEqual([
      REQUIRED_FIELDS_MESSAGE,
      REQUIRED_FIELDS_MESSAGE,
    ]);
    expect(tenantWriteSchema.safeParse({ ...valid, namespaces: null }).data?.namespaces).toEqual(
      [],
    );
  });

  it('reports the required-fields alert as a custom issue, so it reaches the dialog verbatim', () => {
    const issues = tenantWriteSchema.safeParse({ companyName: ' ' }).error?.issues ?? [];
    expect(issues.map((issue) => [issue.code, issue.path.join('.')])).toEqual([
      ['custom', 'companyName'],
      ['custom', 'domicileCountryId'],
    ]);
  });

  it.each([
    [{ ...valid, domicileCountryId: '840' }, 'domicileCountryId must be a number'],
    [{ ...valid, domicileCountryId: 8.4 }, 'domicileCountryId must be a whole number'],
    [{ ...valid, domicileCountryId: 0 }, 'domicileCountryId must be between 1 and 999'],
    [{ ...valid, companyName: 7 }, 'companyName must be a string'],
    [{ ...valid, companyName: 'x'.repeat(201) }, 'companyName must be 200 characters or less'],
    [{ ...valid, companyName: 'a\u0000' }, 'companyName must not contain the NUL character'],
    [{ ...valid, namespaces: ['a\u0000'] }, 'A namespace must not contain the NUL character'],
    [
      { ...valid, namespaces: [` ${'n'.repeat(101)} `] },
      'A namespace must be 100 characters or less',
    ],
    [{ ...valid, namespaces: {} }, 'namespaces must be an array of strings'],
  ])('refuses %j: %s', (input, message) => {
    expect(messagesOf(input)).toEqual([message]);
  });

  it('accepts a namespace of 100 characters once trimmed, and 50 namespaces', () => {
    const parsed = tenantWriteSchema.parse({
      ...valid,
      namespaces: [
        `  ${'n'.repeat(100)}  `,
        ...Array.from({ length: 49 }, (_, index) => `ns${index}`),
      ],
    });
    expect(parsed.namespaces).toHaveLength(50);
    expect(parsed.namespaces[0]).toBe('n'.repeat(100));
  });

  it('counts the namespaces after normalising them', () => {
    const many = Array.from({ length: 60 }, (_, index) => `ns${index % 50}`);
    expect(tenantWriteSchema.parse({ ...valid, namespaces: many }).namespaces).toHaveLength(50);
    expect(messagesOf({ ...valid, namespaces: [...many, 'ns-extra'] })).toEqual([
      'A tenant can have at most 50 namespaces',
    ]);
  });

  it('passes any given namespaces through normalizeNamespaces', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 20 }), (namespaces) => {
        const parsed = tenantWriteSchema.safeParse({ ...valid, namespaces });
        if (namespaces.some((namespace) => namespace.includes('\u0000'))) {
          expect(parsed.success).toBe(false);
        } else {
          expect(parsed.data?.namespaces).toEqual(normalizeNamespaces(namespaces));
        }
      }),
    );
  });
});

describe('tenantIdParamsSchema', () => {
  it('accepts positive serial ids and refuses anything else', () => {
    expect(tenantIdParamsSchema.parse({ id: '42' })).toEqual({ id: 42 });
    for (const id of ['0', '-1', '1.5', 'abc', '2147483648']) {
      expect(tenantIdParamsSchema.safeParse({ id }).success).toBe(false);
    }
  });
});

describe('generateNamespace and resolveNamespaces, as properties', () => {
  it('generates from the company name alone when it has 8 or more letters and digits', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9 .&-]{0,60}$/),
        fc.date(),
        fc.date(),
        (name, first, second) => {
          const letters = name.toLowerCase().replace(/[^a-z0-9]/g, '');
          if (letters.length >= 8) {
            expect(generateNamespace(name, first)).toBe(letters.slice(0, 32));
            expect(generateNamespace(name, second)).toBe(generateNamespace(name, first));
          } else {
            expect(generateNamespace(name, first).startsWith(`${letters}ns`)).toBe(true);
          }
        },
      ),
    );
  });

  it('always resolves to at least one namespace, each trimmed and unique', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.string({ maxLength: 8 })),
        fc.date(),
        (name, given, now) => {
          const resolved = resolveNamespaces(name, given, now);
          expect(resolved.length).toBeGreaterThan(0);
          expect(new Set(resolved).size).toBe(resolved.length);
          for (const namespace of resolved) expect(namespace).toBe(namespace.trim());
        },
      ),
    );
  });
});
