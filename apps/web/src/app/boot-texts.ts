/**
 * Texts of what renders before the first signed-in screen: the login screen, its centred layout
 * and the loading fallback. They come straight from `locales/en.json` (the same keys i18next
 * uses), so the login screen does not download i18next: React, React DOM and React Router already
 * take about 80 kB of the 100 kB gzip budget for it. i18next itself is initialised by
 * `lib/i18n.ts`, which every other route loads with its screen (see `screen()` in routes.tsx).
 *
 * Only plain strings: no interpolation, no plurals. Anything richer belongs to a signed-in screen.
 */
// `?boot` makes this import a module of its own, so that the bundler keeps only these three
// sections here (lib/i18n.ts and the screens import their own sections the same way).
import { common, login, team } from '@/locales/en.json?boot&lang.json';

const bootTexts = { common, login, team };

type Namespace = keyof typeof bootTexts;
export type BootTextKey = {
  [N in Namespace]: `${N}.${Extract<keyof (typeof bootTexts)[N], string>}`;
}[Namespace];

export function bootText(key: BootTextKey): string {
  const [namespace, name] = key.split('.') as [Namespace, string];
  const value: unknown = (bootTexts[namespace] as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : key;
}
