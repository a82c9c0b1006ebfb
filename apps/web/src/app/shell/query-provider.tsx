import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '@/lib/query-client';

// One cache for the whole signed-in session; signing out is a full-page navigation.
const queryClient = createQueryClient();

/** TanStack Query for the screens; the shell around them makes no query. */
export default function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
