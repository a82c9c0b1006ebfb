/**
 * Breadcrumb rules (spec part 1, section 2): a Dashboard link comes first when the path is under
 * /dashboard and the page is not the dashboard itself; then the matched routes by their
 * breadcrumb meta or name; all but the last crumb are links (so a lone Dashboard crumb is not).
 */
import type { RouteMatchInfo } from '../route-table';
import { paths } from '../paths';

export interface Crumb {
  label: string;
  /** Where the crumb links to; absent for the last crumb. */
  to?: string;
}

export function buildBreadcrumbs(
  pathname: string,
  matches: readonly RouteMatchInfo[],
  translate: (key: string) => string,
): Crumb[] {
  const path = pathname.replace(/\/+$/, '') || '/';
  const crumbs: Crumb[] = [];
  if (path.startsWith(`${paths.dashboard()}/`)) {
    crumbs.push({ label: translate('breadcrumb.dashboard'), to: paths.dashboard() });
  }
  for (const match of matches) {
    const label = match.handle?.breadcrumb
      ? translate(match.handle.breadcrumb)
      : match.handle?.name;
    if (label) crumbs.push({ label, to: match.pathname });
  }
  return crumbs.map((crumb, index) =>
    index === crumbs.length - 1 ? { label: crumb.label } : crumb,
  );
}
