import isoCountries from 'i18n-iso-countries';

/**
 * The ISO 3166-1 alpha-2 code of a jurisdiction as the FATF names it, or null. The maintained
 * package knows most names and their common forms ('Bolivia', 'Türkiye', "Cote d'Ivoire"); the
 * FATF's own spellings it does not know are listed here.
 */
const FATF_NAMES: Record<string, string> = {
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
};

export function alpha2OfJurisdiction(jurisdiction: string): string | null {
  // Notes in brackets are not part of the name ('Bahamas (the)').
  const name = jurisdiction.replace(/\([^)]*\)/g, '').trim();
  return FATF_NAMES[name.toLowerCase()] ?? isoCountries.getAlpha2Code(name, 'en') ?? null;
}
