import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  REQUIRED_FIELDS_MESSAGE,
  generateNamespace,
  normalizeNamespaces,
  resolveNamespaces,
  tenantWriteSchema,
} from './tenants.ts';

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
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 10 })), (namespaces) => {
        const normalized = normalizeNamespaces(namespaces);
        expect(normalizeNamespaces(normalized)).toEqual(normalized);
        expect(new Set(normalized).size).toBe(normalized.length);
        for (const namespace of normalized) {
          expect(namespace).not.toBe('');
          expect(namespace).toBe(namespace.trim());
        }
      }),
    );
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
