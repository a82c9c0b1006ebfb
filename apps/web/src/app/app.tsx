import { lazy, Suspense, useState } from 'react';
import { useAuthSession } from '@/lib/auth-session';
import { paths } from './paths';
import { RouteLoading } from './route-loading';

const LoginPage = lazy(() => import('./login-page'));
const RoutedApp = lazy(() => import('./routed-app'));

/**
 * The app root. A signed-out user who opens the login screen gets it without React Router: it
 * needs no client routing (sign-in is a full-page navigation, its two links are plain links), so
 * the router and the route table (about 15 kB gzip) load with the first other screen and the login
 * screen stays within its budget (80 kB gzip of JS, `npm run bench -- bundle`). Every other
 * path, and /login for a signed-in user (the guard sends them to the dashboard), goes through the
 * route table. The providers that only signed-in screens need (TanStack Query, tooltips, the
 * toaster) are mounted by the dashboard shell, a lazily loaded chunk.
 */
export function App() {
  const { isAuthenticated } = useAuthSession();
  // Where the page was opened: later moves happen inside the router (a lost session's redirect
  // to /login included), which renders the same login screen from the route table.
  const [openedAtLogin] = useState(() => window.location.pathname === paths.login());
  return (
    <Suspense fallback={<RouteLoading />}>
      {openedAtLogin && !isAuthenticated ? <LoginPage /> : <RoutedApp />}
    </Suspense>
  );
}
