/**
 * Sign-in guards (spec part 1, section 2): a route that needs sign-in sends an unauthenticated
 * user to Login; an authenticated user going to Login is sent to Dashboard. The role check of the
 * dashboard routes lives in the shell, which knows the matched routes.
 */
import { Navigate, Outlet } from 'react-router';
import { useAuthSession } from '@/lib/auth-session';
import { paths } from './paths';

export function RequireSignIn() {
  const { isAuthenticated } = useAuthSession();
  return isAuthenticated ? <Outlet /> : <Navigate to={paths.login()} replace />;
}

export function RedirectIfSignedIn() {
  const { isAuthenticated } = useAuthSession();
  return isAuthenticated ? <Navigate to={paths.dashboard()} replace /> : <Outlet />;
}
