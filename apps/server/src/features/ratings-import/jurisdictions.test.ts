import isoCountries from 'i18n-iso-countries';
import { describe, expect, it } from 'vitest';
import { alpha2OfJurisdiction } from './jurisdictions.ts';

describe('alpha2OfJurisdiction', () => {
  it("answers the package's own lookup for every name it knows, in any case", () => {
    const names = Object.values(isoCountries.getNames('en', { select: 'all' })).flat();
    for (const name of names) {
      // Both look the name up without its notes in brackets ('Cocos (Keeling) Islands').
      const bare = name.replace(/\([^)]*\)/g, '').trim();
      const expected = isoCountries.getAlpha2Code(bare, 'en');
      // A bare name the package does not know ('Sint Maarten') may be one of the FATF's.
      if (expected === undefined) continue;
      expect(alpha2OfJurisdiction(name), name).toBe(expected);
      expect(alpha2OfJurisdiction(name.toUpperCase()), name).toBe(expected);
    }
  });

  it("knows the FATF's own spellings, leaves notes in brackets out, and answers null otherwise", () => {
    expect(alpha2OfJurisdiction('Hong Kong, China')).toBe('HK');
    expect(alpha2OfJurisdiction('Bahamas (the) ')).toBe('BS');
    expect(alpha2OfJurisdiction('Jurisdiction 7')).toBeNull();
    expect(alpha2OfJurisdiction('constructor')).toBeNull();
  });
});
