import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { runStartup } from '@/lib/auth-session';
import './index.css';

// Spec part 1, section 4: load the configuration, check the session, then mount the app in every
// case, even after a fatal startup error (runStartup never rejects; the catch is a safety net).
// i18next is initialised by lib/i18n.ts, which each route loads with its screen (routes.tsx),
// so the login screen stays within its size budget; it reads its texts from en.json directly.
try {
  await runStartup();
} catch (error) {
  console.error('[startup] Startup failed; mounting the app anyway.', error);
}

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
