/**
 * Test set-up for component tests (candidates for src/test/setup.ts): i18n, Testing Library's
 * cleanup after each test (Vitest runs without globals, so it is not automatic), and inert
 * stand-ins for browser APIs jsdom lacks but Radix uses (ResizeObserver, pointer capture,
 * scrollIntoView).
 */
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import '@/lib/i18n';

afterEach(() => cleanup());
// The first render of a lazily loaded screen compiles its module: allow more than 1 s.
configure({ asyncUtilTimeout: 5000 });

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}

if (typeof window !== 'undefined') {
  window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
  const proto = window.Element.prototype;
  proto.hasPointerCapture ??= () => false;
  proto.setPointerCapture ??= () => {};
  proto.releasePointerCapture ??= () => {};
  proto.scrollIntoView ??= () => {};
}
