// Types of the `?boot` import of en.json in boot-texts.ts: the same namespaces as en.json.
declare module '@/locales/en.json?boot&lang.json' {
  import type en from '@/locales/en.json';

  export const common: (typeof en)['common'];
  export const login: (typeof en)['login'];
  export const team: (typeof en)['team'];
}
