import type { ReactNode } from 'react';
import { bootText } from './boot-texts';

/**
 * The centred layout of the pages shown without the dashboard shell (login, legal pages, not
 * found): the product name, a card with the page, and an optional line under the card.
 * Deliberately free of ui-kit and i18next imports: it is part of the smallest chunk.
 */
export function AuthLayout({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="bg-muted flex min-h-svh flex-col items-center justify-center gap-6 p-6 md:p-10">
      <header className="flex items-center gap-2 font-medium">
        <span
          aria-hidden="true"
          className="bg-primary text-primary-foreground flex size-6 items-center justify-center rounded-md text-xs font-semibold"
        >
          VC
        </span>
        {bootText('team.name')}
      </header>
      <main className="flex w-full max-w-sm flex-col gap-6">
        <div className="bg-card text-card-foreground flex flex-col gap-6 rounded-xl border p-6 shadow-sm md:p-8">
          {children}
        </div>
        {footer}
      </main>
    </div>
  );
}
