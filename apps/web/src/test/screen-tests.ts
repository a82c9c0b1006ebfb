/**
 * The one set-up of screen tests: each test starts with an empty local storage, signed in as
 * `user`, with the app configuration loaded (screens wait for it); afterwards the screen is
 * unmounted and mocks, configuration and session are reset. Call it at the top of a test file.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { signInAs, signOut, type TestUser } from '@/app/testing/render';
import { loadTestConfig } from '@/app/testing/screen';
import { resetAppConfig } from '@/lib/app-config';

export function setUpScreenTests(user: TestUser): void {
  beforeEach(async () => {
    localStorage.clear();
    signInAs(user);
    await loadTestConfig();
  });
  afterEach(() => {
    // Unmount first: a mounted screen would load the configuration again once it is reset.
    cleanup();
    vi.restoreAllMocks();
    resetAppConfig();
    signOut();
  });
}
