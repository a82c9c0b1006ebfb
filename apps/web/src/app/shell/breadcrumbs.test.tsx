import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { matchRoutesAt } from '../router';
import { STAFF_USER, renderAppAt, signInAs, signOut } from '../testing/render';
import { buildBreadcrumbs } from './breadcrumbs';

afterEach(() => signOut());

const labels: Record<string, string> = {
  'breadcrumb.dashboard': 'Dashboard',
  'breadcrumb.countries': 'Countries',
  'breadcrumb.emailTemplates': 'Email Templates',
  'breadcrumb.emailTemplateEdit': 'Edit Template',
  'breadcrumb.fatfData': 'FATF Data',
};
const translate = (key: string) => labels[key] ?? key;
const crumbsAt = (path: string) => buildBreadcrumbs(path, matchRoutesAt(path), translate);

describe('buildBreadcrumbs', () => {
  it('shows a lone Dashboard crumb, not a link, on the dashboard itself', () => {
    expect(crumbsAt('/dashboard')).toEqual([{ label: 'Dashboard' }]);
    expect(crumbsAt('/dashboard/')).toEqual([{ label: 'Dashboard' }]);
  });

  it('begins with a Dashboard link under /dashboard and ends with the page, not a link', () => {
    expect(crumbsAt('/dashboard/countries')).toEqual([
      { label: 'Dashboard', to: '/dashboard' },
      { label: 'Countries' },
    ]);
  });

  it('lists every matched route with a breadcrumb; all but the last are links', () => {
    expect(crumbsAt('/dashboard/email-templates/42')).toEqual([
      { label: 'Dashboard', to: '/dashboard' },
      { label: 'Email Templates', to: '/dashboard/email-templates' },
      { label: 'Edit Template' },
    ]);
  });

  it('has no Dashboard crumb outside /dashboard', () => {
    expect(crumbsAt('/fatf/data')).toEqual([{ label: 'FATF Data' }]);
  });

  it('uses the route name when there is no breadcrumb key', () => {
    const crumbs = buildBreadcrumbs(
      '/dashboard/x',
      [{ id: 'X', pathname: '/dashboard/x', handle: { name: 'Plain name' } }],
      translate,
    );
    expect(crumbs).toEqual([{ label: 'Dashboard', to: '/dashboard' }, { label: 'Plain name' }]);
  });
});

describe('breadcrumb in the header', () => {
  async function breadcrumb() {
    return screen.findByRole('navigation', { name: 'breadcrumb' });
  }

  it('renders the lone Dashboard crumb as the current page, not a link', async () => {
    signInAs(STAFF_USER);
    renderAppAt('/dashboard');
    const nav = await breadcrumb();
    expect(within(nav).queryAllByRole('link')).toHaveLength(0);
    expect(within(nav).getByText('Dashboard')).toHaveAttribute('aria-current', 'page');
  });

  it('renders nested crumbs with links to their routes', async () => {
    signInAs(STAFF_USER);
    renderAppAt('/dashboard/email-templates/new');
    const nav = await breadcrumb();
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Dashboard', '/dashboard'],
      ['Email Templates', '/dashboard/email-templates'],
    ]);
    expect(within(nav).getByText('Edit Template')).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByText('Edit Template').closest('a')).toBeNull();
  });
});
