/**
 * i18next set-up: English only, English as the fallback (spec part 1, section 1). Every
 * user-visible text lives in `locales/en.json` under a stable key `section.name`; each top-level
 * section is an i18next namespace (`nsSeparator` is '.', so `t('countries.add')` reads the
 * namespace `countries`).
 *
 * Only the dashboard shell's namespaces are bundled here. A lazily loaded screen brings its own:
 * its module imports its sections from en.json (`?<name>&lang.json` makes that import a module
 * of its own, holding only those sections) and hands them to `addNamespaces` when it loads, so
 * its texts travel in its chunk. Initialisation is synchronous: importing this module is enough
 * before the first render.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  access,
  app,
  breadcrumb,
  common,
  confirm,
  nav,
  pages,
  team,
  user,
} from '@/locales/en.json?shell&lang.json';

export const defaultNS = 'common';
const shellNamespaces = { app, common, access, nav, team, user, pages, breadcrumb, confirm };

void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: ['en'],
  ns: Object.keys(shellNamespaces),
  defaultNS,
  nsSeparator: '.',
  keySeparator: '.',
  resources: { en: shellNamespaces },
  initAsync: false,
  // React escapes rendered text already.
  interpolation: { escapeValue: false },
  returnNull: false,
  // No promotional console message in the browser or in test output.
  showSupportNotice: false,
});

/** Adds the namespaces of a screen (top-level sections of en.json), once each. */
export function addNamespaces(sections: Readonly<Record<string, object>>): void {
  for (const [namespace, texts] of Object.entries(sections)) {
    if (!i18n.hasResourceBundle('en', namespace)) i18n.addResourceBundle('en', namespace, texts);
  }
}

export default i18n;
