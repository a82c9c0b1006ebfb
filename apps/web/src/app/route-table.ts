/**
 * The route table as the shell reads it. The table (routes.tsx) lazily imports the shell, so the
 * shell must not import the table back: router.tsx hands it down through this context instead.
 */
import { createContext, useContext, useMemo } from 'react';
import { matchRoutes, useLocation, type RouteObject } from 'react-router';
import type { AppRoute, RouteHandle } from './route-types';

export interface RouteTable {
  /** The app's route table (routes.tsx). */
  routes: readonly AppRoute[];
  /** The same table as React Router route objects, for matching. */
  routeObjects: RouteObject[];
}

export const RouteTableContext = createContext<RouteTable>({ routes: [], routeObjects: [] });

export function useRouteTable(): RouteTable {
  return useContext(RouteTableContext);
}

export interface RouteMatchInfo {
  id: string | undefined;
  /** The part of the URL this route matched, e.g. `/dashboard/email-templates`. */
  pathname: string;
  handle: RouteHandle | undefined;
}

/** The routes of `routeObjects` matched by a path, outermost first (as `useMatches()` gives). */
export function matchRouteObjects(routeObjects: RouteObject[], pathname: string): RouteMatchInfo[] {
  return (matchRoutes(routeObjects, pathname) ?? []).map((match) => ({
    id: match.route.id,
    pathname: match.pathname,
    handle: match.route.handle as RouteHandle | undefined,
  }));
}

/** The routes matched by the current location, outermost first. */
export function useRouteMatches(): RouteMatchInfo[] {
  const { pathname } = useLocation();
  const { routeObjects } = useRouteTable();
  return useMemo(() => matchRouteObjects(routeObjects, pathname), [routeObjects, pathname]);
}
