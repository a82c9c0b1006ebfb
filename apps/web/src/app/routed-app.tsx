import { BrowserRouter } from 'react-router';
import { AppRoutes } from './router';

/** Every screen but the first login screen: React Router over the route table (routes.tsx). */
export default function RoutedApp() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
