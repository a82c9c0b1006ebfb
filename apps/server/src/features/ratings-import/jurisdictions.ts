import isoCountries from 'i18n-iso-countries';

/**
 * The ISO 3166-1 alpha-2 code of a jurisdiction as the FATF names it, or null. The maintained
 * package knows most names and their common forms ('Bolivia', 'Türkiye', "Cote d'Ivoire"); the
 * FATF's own spellings it does not know are listed here (maps: a name such as 'constructor' must
 * not find an object's own property).
 */
const FATF_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    korea: 'KR',
    'republic of korea': 'KR',
    "democratic people's republic of korea": 'KP',
    dprk: 'KP',
    'hong kong, china': 'HK',
    'macao, china': 'MO',
    'chinese taipei': 'TW',
    'slovak republic': 'SK',
    'kyrgyz republic': 'KG',
    'lao pdr': 'LA',
    syria: 'SY',
    'cabo verde': 'CV',
    micronesia: 'FM',
    'sint maarten': 'SX',
    'congo, democratic republic': 'CD',
    'congo, republic of': 'CG',
    'republic of congo': 'CG',
    'st. kitts and nevis': 'KN',
    'st. lucia': 'LC',
    'st. vincent and the grenadines': 'VC',
  }),
);

/**
 * Every English name the package knows for a country (official and alternative), lower-cased, to
 * its code, built once. The package's own lookup (getAlpha2Code) compares a name with each of its
 * names in turn, lower-casing both every time: for a name it does not know, that was most of an
 * import's validation. The first country that has a name keeps it, as that lookup answers.
 */
const ISO_NAMES: ReadonlyMap<string, string> = (() => {
  const names = new Map<string, string>();
  for (const [code, spellings] of Object.entries(isoCountries.getNames('en', { select: 'all' }))) {
    for (const spelling of spellings) {
      const key = spelling.toLowerCase();
      if (!names.has(key)) names.set(key, code);
    }
  }
  return names;
})();

export function alpha2OfJurisdiction(jurisdiction: string): string | null {
  // Notes in brackets are not part of the name ('Bahamas (the)').
  const name = jurisdiction
    .replace(/\([^)]*\)/g, '')
    .trim()
    .toLowerCase();
  return FATF_NAMES.get(name) ?? ISO_NAMES.get(name) ?? null;
}
