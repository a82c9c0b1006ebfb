/**
 * Renders the route table. React Router's declarative mode (`useRoutes`) is used on purpose: the
 * data router (`createBrowserRouter` + `RouterProvider`) adds about 16 kB gzip to the JS needed
 * before the login screen is usable, and this app does not use loaders or actions (server state
 * goes through TanStack Query). The table keeps the data router's shape (`lazy` resolving to
 * `{Component}`, `handle`), so switching is `createBrowserRouter(routes)` plus `useMatches()` in
 * `useRouteMatches` (route-table.ts).
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { RouteLoading } from './route-loading';
import {
  matchRouteObjects,
  RouteTableContext,
  type RouteMatchInfo,
  type RouteTable,
} from './route-table';
import type { AppRoute } from './route-types';
import { routes } from './routes';

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

const routeTable: RouteTable = { routes, routeObjects };

export function AppRoutes() {
  const element = useRoutes(routeObjects);
  return (
    <RouteTableContext.Provider value={routeTable}>
      <Suspense fallback={<RouteLoading />}>{element}</Suspense>
    </RouteTableContext.Provider>
  );
}

/** The app's routes matched by a path, outermost first. */
export function matchRoutesAt(pathname: string): RouteMatchInfo[] {
  return matchRouteObjects(routeObjects, pathname);
}
