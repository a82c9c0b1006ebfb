/**
 * The dashboard shell (spec part 1, section 2): collapsible sidebar, a header with the sidebar
 * trigger and the breadcrumb, and the matched screen, or the not-available page when the user's
 * roles do not allow it. It also mounts what only signed-in screens need: TanStack Query (around
 * the screen), the tooltip provider (inside SidebarProvider, delay 0) and the toaster (sonner's
 * defaults); the first and the last load after the sidebar (see below).
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { Outlet } from 'react-router';
import { Separator } from '@/components/ui/separator';
import {
  SidebarInset,
  SidebarProvider,
  SidebarTrigger,
  readSidebarCookie,
} from '@/components/ui/sidebar';
import { useAuthSession } from '@/lib/auth-session';
import { useBrowserIdle } from '@/lib/use-browser-idle';
import { canAccessAll, rolesOf } from '../access';
import { RouteLoading } from '../route-loading';
import { useRouteMatches } from '../route-table';
import { AppBreadcrumb } from './app-breadcrumb';
import { AppSidebar } from './app-sidebar';
import { NotAvailable } from './not-available';

// TanStack Query (about 10 kB gzip) loads beside the first screen, which needs it; the sidebar
// and header do not, so they show without waiting for it.
const QueryProvider = lazy(() => import('./query-provider'));

// The toaster shows what a screen did, so it is not needed before the shell is usable: it loads
// once the browser is idle (sonner is about 10 kB gzip). A toast is only ever raised by a user's
// action, after that.
const Toaster = lazy(async () => ({ default: (await import('@/components/ui/sonner')).Toaster }));

export default function DashboardLayout() {
  const { accessToken } = useAuthSession();
  const roles = useMemo(() => rolesOf(accessToken), [accessToken]);
  const matches = useRouteMatches();
  const allowed = canAccessAll(
    matches.map((match) => match.handle),
    roles,
  );
  // The expanded state persisted in the sidebar:state cookie by an earlier visit.
  const [defaultOpen] = useState(() => readSidebarCookie() ?? true);
  const idle = useBrowserIdle();

  return (
    <>
      <SidebarProvider defaultOpen={defaultOpen}>
        <AppSidebar roles={roles} />
        {/* min-w-0: the screen gets the window's width, not its content's, so a wide table
            scrolls inside its own container instead of the page scrolling sideways. */}
        <SidebarInset className="min-w-0">
          <header className="bg-background sticky top-0 z-10 flex h-14 shrink-0 items-center gap-2 border-b px-4">
            <SidebarTrigger className="-ml-1" />
            <Separator orientation="vertical" className="mr-2 data-[orientation=vertical]:h-4" />
            <AppBreadcrumb matches={matches} />
          </header>
          <div className="flex flex-1 flex-col gap-4 p-4 md:p-6">
            <Suspense fallback={<RouteLoading />}>
              <QueryProvider>{allowed ? <Outlet /> : <NotAvailable />}</QueryProvider>
            </Suspense>
          </div>
        </SidebarInset>
      </SidebarProvider>
      {idle && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </>
  );
}
