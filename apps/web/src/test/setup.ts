import '@testing-library/jest-dom/vitest';
import { addNamespaces } from '@/lib/i18n';
import en from '@/locales/en.json';

// Every text of the app, whichever module a test imports (the app adds them screen by screen).
addNamespaces(en);
