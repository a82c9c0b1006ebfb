/**
 * The sidebar's entries, read from the route table (routes with `handle.nav`), in table order.
 */
import { canAccessAll } from '../access';
import type { AppRoute, NavGroup, NavIcon, Role, RouteHandle } from '../route-types';

export interface NavItem {
  /** Full path of the route, e.g. `/dashboard/countries`. */
  url: string;
  /** i18n key of the label. */
  label: string;
  icon: NavIcon;
  group: NavGroup;
  /** The handles of the route and its parents, for the access check. */
  handles: (RouteHandle | undefined)[];
}

export interface NavSection {
  group: NavGroup;
  /** i18n key of the group label. */
  label: string;
  items: NavItem[];
}

const GROUPS: { group: NavGroup; label: string }[] = [
  { group: 'tenants', label: 'nav.groups.tenants' },
  { group: 'settings', label: 'nav.groups.settings' },
];

function joinPath(base: string, path: string): string {
  if (path.startsWith('/')) return path;
  return `${base.replace(/\/+$/, '')}/${path}`;
}

function collect(
  table: readonly AppRoute[],
  base: string,
  parents: (RouteHandle | undefined)[],
  into: NavItem[],
): NavItem[] {
  for (const route of table) {
    const url = route.path ? joinPath(base, route.path) : base;
    const handles = [...parents, route.handle];
    const nav = route.handle?.nav;
    if (nav) into.push({ url, label: nav.label, icon: nav.icon, group: nav.group, handles });
    if (route.children) collect(route.children, url, handles, into);
  }
  return into;
}

/** The sidebar groups and entries a user with these roles may open; empty groups are left out. */
export function navSections(routes: readonly AppRoute[], roles: readonly Role[]): NavSection[] {
  const navItems = collect(routes, '/', [], []);
  return GROUPS.map(({ group, label }) => ({
    group,
    label,
    items: navItems.filter((item) => item.group === group && canAccessAll(item.handles, roles)),
  })).filter((section) => section.items.length > 0);
}
