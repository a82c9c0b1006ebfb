import { BrowserRouter } from 'react-router';
import { AppRoutes } from './router';

/**
 * The app root. The providers that only signed-in screens need (TanStack Query, tooltips, the
 * toaster) are mounted by the dashboard shell, a lazily loaded chunk, so that the login screen
 * does not download them.
 */
export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
