/**
 * Renders the route table. React Router's declarative mode (`useRoutes`) is used on purpose: the
 * data router (`createBrowserRouter` + `RouterProvider`) adds about 16 kB gzip to the JS needed
 * before the login screen is usable, and this app does not use loaders or actions (server state
 * goes through TanStack Query). The table keeps the data router's shape (`lazy` resolving to
 * `{Component}`, `handle`), so switching is `createBrowserRouter(routes)` plus `useMatches()` in
 * `useRouteMatches`.
 */
import { lazy, Suspense, useMemo, type ComponentType } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router';
import { RouteLoading } from './route-loading';
import { routes, type AppRoute, type RouteHandle } from './routes';

function lazyElement(load: NonNullable<AppRoute['lazy']>) {
  const Screen: ComponentType = lazy(async () => ({ default: (await load()).Component }));
  return <Screen />;
}

function toRouteObjects(table: AppRoute[]): RouteObject[] {
  return table.map((route) => {
    const element = route.lazy ? lazyElement(route.lazy) : route.element;
    const common = { id: route.id, handle: route.handle, element };
    return route.index
      ? { ...common, index: true as const }
      : { ...common, path: route.path, children: route.children && toRouteObjects(route.children) };
  });
}

/** The route table as React Router route objects with lazily loaded elements. */
export const routeObjects: RouteObject[] = toRouteObjects(routes);

export function AppRoutes() {
  const element = useRoutes(routeObjects);
  return <Suspense fallback={<RouteLoading />}>{element}</Suspense>;
}

export interface RouteMatchInfo {
  id: string | undefined;
  /** The part of the URL this route matched, e.g. `/dashboard/email-templates`. */
  pathname: string;
  handle: RouteHandle | undefined;
}

/** The routes matched by a path, outermost first (what `useMatches()` gives in a data router). */
export function matchRoutesAt(pathname: string): RouteMatchInfo[] {
  return (matchRoutes(routeObjects, pathname) ?? []).map((match) => ({
    id: match.route.id,
    pathname: match.pathname,
    handle: match.route.handle as RouteHandle | undefined,
  }));
}

/** The routes matched by the current location, outermost first. */
export function useRouteMatches(): RouteMatchInfo[] {
  const { pathname } = useLocation();
  return useMemo(() => matchRoutesAt(pathname), [pathname]);
}
