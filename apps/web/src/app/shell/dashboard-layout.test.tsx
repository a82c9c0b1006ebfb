import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STAFF_USER, renderAppAt, signInAs, signOut } from '../testing/render';

function clearSidebarCookie() {
  document.cookie = 'sidebar:state=; path=/; max-age=0';
}

beforeEach(() => clearSidebarCookie());
afterEach(() => {
  signOut();
  clearSidebarCookie();
  vi.restoreAllMocks();
});

/** The header's trigger (the sidebar rail is a second, unfocusable 'Toggle Sidebar' button). */
async function headerTrigger() {
  const buttons = await screen.findAllByRole('button', { name: 'Toggle Sidebar' });
  const trigger = buttons.find((button) => button.dataset.sidebar === 'trigger');
  if (!trigger) throw new Error('no sidebar trigger');
  return trigger;
}

function sidebarState() {
  return document.querySelector('[data-slot="sidebar"]')?.getAttribute('data-state');
}

describe('collapsible sidebar', () => {
  it.each([
    ['Ctrl', '{Control>}b{/Control}'],
    ['Cmd', '{Meta>}b{/Meta}'],
  ])('toggles with %s+B and stores the state in the sidebar:state cookie', async (_key, keys) => {
    const cookieWrites = vi.spyOn(document, 'cookie', 'set');
    const user = userEvent.setup();
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    await screen.findByRole('navigation', { name: 'Main' });
    expect(sidebarState()).toBe('expanded');

    await user.keyboard(keys);
    expect(sidebarState()).toBe('collapsed');
    expect(cookieWrites).toHaveBeenLastCalledWith('sidebar:state=false; path=/; max-age=604800');
    expect(document.cookie).toContain('sidebar:state=false');

    await user.keyboard(keys);
    expect(sidebarState()).toBe('expanded');
    expect(cookieWrites).toHaveBeenLastCalledWith('sidebar:state=true; path=/; max-age=604800');
  });

  it('ignores B without Ctrl or Cmd', async () => {
    const user = userEvent.setup();
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    await screen.findByRole('navigation', { name: 'Main' });
    await user.keyboard('b');
    expect(sidebarState()).toBe('expanded');
  });

  it('toggles with the header trigger', async () => {
    const user = userEvent.setup();
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    await user.click(await headerTrigger());
    expect(sidebarState()).toBe('collapsed');
    expect(document.cookie).toContain('sidebar:state=false');
  });

  it('starts collapsed when the cookie says so', async () => {
    document.cookie = 'sidebar:state=false; path=/';
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    await screen.findByRole('navigation', { name: 'Main' });
    expect(sidebarState()).toBe('collapsed');
  });
});

describe('shell landmarks', () => {
  it('has a main landmark with the page heading and a header with the trigger', async () => {
    signInAs(STAFF_USER);
    renderAppAt('/dashboard/countries');
    const main = await screen.findByRole('main');
    expect(main).toContainElement(
      await screen.findByRole('heading', { level: 1, name: 'Countries' }),
    );
    expect(main).toContainElement(await headerTrigger());
  });
});
