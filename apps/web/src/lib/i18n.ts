/**
 * i18next set-up: English only, English as the fallback (spec part 1, section 1). Every
 * user-visible text lives in `locales/en.json` under a stable key. Resources are bundled, so
 * initialisation is synchronous: importing this module is enough before the first render.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/locales/en.json';

export const defaultNS = 'translation';
export const resources = { en: { translation: en } } as const;

void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: ['en'],
  defaultNS,
  resources,
  initAsync: false,
  // React escapes rendered text already.
  interpolation: { escapeValue: false },
  returnNull: false,
  // No promotional console message in the browser or in test output.
  showSupportNotice: false,
});

export default i18n;
